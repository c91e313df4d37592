/* replay: the command-line front of taskreplay.  Dispatches to the
 * subcommands; only this program decides what is printed and how it exits. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "cli.h"
#include "cmds.h"
#include "generator.h"
#include "nearest.h"

static const char usage_text[] =
    "usage: replay [--db results.db] [--strict | --problems-ok] [--quiet]\n"
    "              [--batch N] [--shard I/N] [--timings] [--max-open N]\n"
    "              [--tools-dir DIR]... [--any-tools-path]\n"
    "              [--run R --tools FILE [--model M]] PATH...\n"
    "       replay --from FORMAT [LOG OPTIONS] [OPTIONS] LOG...\n"
    "       replay import FORMAT LOG... [-o OUT.jsonl] [LOG OPTIONS]\n"
    "       replay merge [--quiet] OUT.db SHARD.db...\n"
    "       replay hash [--canonical] FILE...\n"
    "       replay tools [--json] FILE\n"
    "       replay tasks FILE [--seeds 1-50] [--arms base,...] [--request]\n"
    "       replay sim FILE [--seed N] [--arm ARM] [--transcript OUT.jsonl\n"
    "                  [--run R] [--episode E]] [--report REPORT.jsonl]\n"
    "       replay serve FILE [--seed N] [--arm ARM] [--run R]\n"
    "                  [--transcript OUT.jsonl] [--report REPORT.jsonl]\n"
    "                  [--http [HOST:]PORT [--idle SECONDS] [--sessions N]\n"
    "                  [--connections N] [--timeout SECONDS]]\n"
    "       replay --version | --help\n"
    "\n"
    "  PATH...             replay transcripts (files, folders of *.jsonl,\n"
    "                      '-') into the results database: every call\n"
    "                      answered again, episodes written whole, skipped\n"
    "                      when unchanged; unusable lines go to the problems\n"
    "                      table; exit 0 all used, 1 some problems, 3 could\n"
    "                      not run (database, tool file), 130 interrupted\n"
    "  --problems-ok       exit 0, not 1, when the night was read to its\n"
    "                      end with some lines problems (still recorded\n"
    "                      and said): for batch jobs that count on 0\n"
    "  --quiet             no progress line (the shard, problems and the\n"
    "                      summary are still said)\n"
    "  --batch N           episodes (or problem lines) a transaction\n"
    "                      (default 4096); a killed replay redoes at most\n"
    "                      one\n"
    "  --shard I/N         only the episodes of shard I (from 0) of N; read\n"
    "                      from TASKREPLAY_SHARD, a Slurm job array or a\n"
    "                      Kubernetes indexed Job when not given (N from\n"
    "                      TASKREPLAY_SHARDS when it is set)\n"
    "  --timings           end with the wall time and each thread's CPU\n"
    "                      seconds (reading, writing, copying the log)\n"
    "  --max-open N        episodes open at once (default 10000); past it\n"
    "                      the oldest is written as unfinished\n"
    "  --tools-dir DIR     a folder run lines' tool files may be in, besides\n"
    "                      the transcript's and the current one (also\n"
    "                      TASKREPLAY_TOOLS_DIR, folders split by ':')\n"
    "  --any-tools-path    let run lines name any tool file\n"
    "  --from FORMAT       replay logs other harnesses write: inspect\n"
    "                      (Inspect .eval and .json logs), otlp\n"
    "                      (OpenTelemetry GenAI traces, OTLP JSON),\n"
    "                      messages (OpenAI or Anthropic message\n"
    "                      trajectories), or auto (recognised from each\n"
    "                      file; the default for a file named here that is\n"
    "                      not .jsonl); folders give the format's files\n"
    "  import FORMAT LOG   write the logs as transcript JSONL (-o OUT, else\n"
    "                      stdout), and the tools they offer as an OpenAI\n"
    "                      tool file beside it (tools-HASH.json)\n"
    "  LOG OPTIONS         --run R, --model M (when the log names none),\n"
    "                      --tools FILE (your tool file, not the log's),\n"
    "                      --tools-out DIR, --score NAME (Inspect),\n"
    "                      --preset tau-bench|tau2, --task KEY,\n"
    "                      --trial KEY, --id KEY, --success KEY[=VALUE],\n"
    "                      --reward KEY, --messages KEY (dotted paths in\n"
    "                      a trajectory's record), --each-agent (a trace's\n"
    "                      nested agents episodes of their own); see\n"
    "                      docs/logs.md\n"
    "  merge OUT SHARD...  merge shard databases into OUT, as one replay\n"
    "                      would have written it\n"
    "  hash FILE...        print each tool file's hashes:\n"
    "                      FILE_SHA256  CONTRACT_SHA256  PATH\n"
    "  hash --canonical F  print the canonical JSON the contract hash is\n"
    "                      taken of (diff two files' contracts with it)\n"
    "  tools FILE          print the tool table: each tool's kind (read or\n"
    "                      write) and why, arguments, output schema, and\n"
    "                      the refused tools with their reasons\n"
    "  tasks FILE          print the tasks of each seed and arm, one JSON\n"
    "                      object a line (default: seed 1, arm base);\n"
    "                      --request: only each task's request text\n"
    "  sim FILE            answer calls live: one call a line on stdin, one\n"
    "                      answer a line on stdout; --transcript appends the\n"
    "                      session for replay, --report writes each call's\n"
    "                      effect and the episode's verdict ('-' for\n"
    "                      either: into stdout, after each answer)\n"
    "  serve FILE          the simulator as an MCP server, over stdin and\n"
    "                      stdout (one session) or, with --http, over\n"
    "                      Streamable HTTP at http://HOST:PORT/mcp (a\n"
    "                      session each, ?seed=N&arm=ARM choosing its\n"
    "                      task); each session's episode is appended to\n"
    "                      --transcript when it ends (docs/serve.md)\n"
    "\n"
    "Arms: base, depth:d1..d8, faults:f0|1|2|4, timeouts:o0|1|2|4,\n"
    "ratelimits:r0|1|2|4, landed:l0|1, baddata:b0..b3, lagged:g0|1.\n"
    "\n"
    "  --version           the program's version, and the generator's\n"
    "                      version and fingerprint\n"
    "\n"
    "A FILE of '-' is standard input (not for sim).  Exit status: 0 done,\n"
    "1 some input refused (one line each on stderr), 2 usage error, 3\n"
    "could not run at all (the database, an input path or the tool file\n"
    "cannot be opened or written: the line says which), 130 interrupted\n"
    "(Ctrl-C: the episodes finished are kept; run the same command again).\n"
    "See replay(1) for the rules and the limits.\n";

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("no command given");
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        char fp[SHA256_HEX_LEN + 1];
        err e;
        err_clear(&e);
        if (generator_fingerprint(fp, &e) < 0) {
            say("replay: cannot fingerprint the generator: %s",
                e.msg);
            return EXIT_REFUSED;
        }
        printf("replay (%s) %s\ngenerator %d, fingerprint %s\n",
               PACKAGE_NAME, PACKAGE_VERSION, GENERATOR_VERSION, fp);
        return 0;
    }
    if (strcmp(cmd, "hash") == 0)
        return cmd_hash(argc - 2, argv + 2);
    if (strcmp(cmd, "tools") == 0)
        return cmd_tools(argc - 2, argv + 2);
    if (strcmp(cmd, "tasks") == 0)
        return cmd_tasks(argc - 2, argv + 2);
    if (strcmp(cmd, "sim") == 0)
        return cmd_sim(argc - 2, argv + 2);
    if (strcmp(cmd, "serve") == 0)
        return cmd_serve(argc - 2, argv + 2);
    if (strcmp(cmd, "merge") == 0)
        return cmd_merge(argc - 2, argv + 2);
    if (strcmp(cmd, "import") == 0)
        return cmd_import(argc - 2, argv + 2);
    /* a word that is neither a command nor a path: a mistyped command */
    struct stat st;
    if (cmd[0] != '-' && !strchr(cmd, '/') && !strchr(cmd, '.') &&
        stat(cmd, &st) != 0) {
        static const char *const commands[] = {"hash", "tools", "tasks",
                                               "sim", "serve", "merge",
                                               "import"};
        const char *nearest = commands[0];
        size_t best = (size_t)-1;
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
            size_t d = edit_distance(cmd, strlen(cmd), commands[i],
                                     strlen(commands[i]));
            if (d < best) {
                best = d;
                nearest = commands[i];
            }
        }
        return usage_error("'%s' is neither a command nor a transcript; did "
                           "you mean '%s'?",
                           cmd, nearest);
    }
    /* the main job: replay [OPTIONS] PATH... */
    return cmd_replay(argc - 1, argv + 1);
}
