# The Slurm example of docs/cluster.md, run as it is written, on a real
# single-node Slurm: Debian's slurm-wlm and munge, started for this test
# alone.  slurmctld and slurmd listen on loopback only (the address of the
# host's name: 127.0.0.1 or 127.0.1.1) on ports chosen free, munged on a
# socket of its own, with their key, socket, state, spool and logs in the test's
# temporary folder (SLURM_CONF and munged's options point there; nothing
# system-wide is read for them or written), and they are stopped on every
# way out of this script.  It runs as root or as any user.
#
# The job script and the commands are the page's own blocks (the night's
# and the tools' folders put in), so the page cannot drift from what works:
#   1. a night whose task 3 fails (its database cannot be written): the
#      other tasks take their shards from Slurm's variables, each log says
#      its shard and ends with the summary one process gives for that
#      shard, and the afterok merge never runs; the task requeued, the new
#      merge after it equals one process's database, and every episode is
#      in exactly one shard;
#   2. task 5 submitted again on its own (sbatch --array=5) keeps its shard;
#   3. a night with a line that is not JSON: every task succeeds, the
#      merge runs and equals one process's database, the problem recorded
#      once.
# Each wait has a deadline, with room for a loaded 2-core machine running
# replay under sanitizers.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
need_cmd sqlite3
PATH=$PATH:/usr/sbin:/sbin
for c in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
    command -v "$c" >/dev/null 2>&1 ||
        lack "$c (Debian: apt-get install slurm-wlm munge)"
done
py=${PYTHON3:-python3}
command -v "$py" >/dev/null 2>&1 || lack "python3 (Debian: python3)"
tmpdir
# what the environment says about another Slurm, or a shard, is not ours
for v in $(env | sed -n 's/^\(S\(LURM\|BATCH\|QUEUE\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
    unset "$v"
done
unset TASKREPLAY_SHARD TASKREPLAY_SHARDS JOB_COMPLETION_INDEX TASKREPLAY_TOOLS_DIR
export SOURCE_DATE_EPOCH=1790000000
pass=0 fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }
began=$(date +%s)

# ------------------------------------------------------------ the cluster
T=$TEST_TMP
chmod 711 "$T" # munged wants the way to its socket open to every user
mkdir -p "$T/munge" "$T/run" "$T/state" "$T/spool" "$T/log" || exit 99
chmod 700 "$T/munge" && chmod 755 "$T/run" || exit 99
daemons=""
# stop: every job of this cluster cancelled, then slurmd, slurmctld and
# munged, each given 15 s to end on TERM, then killed
stop() {
    if [ -n "$daemons" ]; then
        scancel --user="$(id -un)" >/dev/null 2>&1
        n=0
        while [ -n "$(squeue -h -o %i 2>/dev/null)" ] && [ $n -lt 50 ]; do
            sleep 0.2; n=$((n + 1))
        done
    fi
    for pid in $daemons; do
        kill -TERM "$pid" 2>/dev/null || continue
        n=0
        while kill -0 "$pid" 2>/dev/null && [ $n -lt 75 ]; do
            sleep 0.2; n=$((n + 1))
        done
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    daemons=""
}
trap 'stop; rm -rf "$TEST_TMP"' EXIT
trap 'exit 130' HUP INT TERM

# wait_for SECONDS WHAT CMD...: polls CMD until it succeeds; false, after
# saying WHAT, when it has not within SECONDS
wait_for() {
    wf_end=$(($(date +%s) + $1))
    wf_what=$2
    shift 2
    until "$@"; do
        if [ "$(date +%s)" -ge "$wf_end" ]; then
            echo "no $wf_what within the time allowed"
            return 1
        fi
        sleep 0.2
    done
}
# show_logs: the daemons' last lines, for a cluster that did not behave
show_logs() {
    for f in "$T"/log/*.log; do
        echo "--- $f"
        tail -n 15 "$f"
    done
}

user=$(id -un)
host=$(uname -n)
host=${host%%.*} # slurmctld knows itself by its short host name
# ... and, to listen on loopback only (NoCtldInAddrAny), binds to the
# address that name resolves to (127.0.1.1 on an installed Debian, whose
# installer writes it in /etc/hosts): its own address for the cluster.  A
# name that does not resolve, or not to loopback, cannot serve here; not a
# broken install, so a skip even under quickstart
ctld=$(getent ahostsv4 "$host" 2>/dev/null | awk '{ print $1; exit }')
case $ctld in
127.*) ;;
'')
    echo "SKIP: this host's name ($host) does not resolve, and slurmctld binds to its address to stay on loopback; add \"127.0.1.1 $host\" to /etc/hosts"
    exit 77 ;;
*)
    echo "SKIP: this host's name ($host) resolves to $ctld, not to a loopback address, and slurmctld would listen there"
    exit 77 ;;
esac

dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 2>/dev/null &&
    chmod 400 "$T/munge/munge.key" || exit 99
munged -F --socket="$T/run/munge.socket" --key-file="$T/munge/munge.key" \
    --log-file="$T/log/munged.log" --pid-file="$T/run/munged.pid" \
    --seed-file="$T/munge/munged.seed" >"$T/log/munged.out" 2>&1 &
daemons="$! $daemons"
wait_for 20 "munge socket" test -S "$T/run/munge.socket" ||
    { show_logs; cat "$T/log/munged.out"; exit 99; }

ports=$("$py" -c '
import socket, sys
s = [socket.socket() for _ in range(2)]
for x in s:
    x.bind((sys.argv[1], 0))
print(" ".join(str(x.getsockname()[1]) for x in s))' "$ctld") || exit 99
set -- $ports
cport=$1 dport=$2
cat >"$T/slurm.conf" <<EOF
ClusterName=taskreplay
SlurmctldHost=$host($ctld)
SlurmctldPort=$cport
SlurmdPort=$dport
SlurmUser=$user
SlurmdUser=$user
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
AuthType=auth/munge
AuthInfo=socket=$T/run/munge.socket
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/run/slurmctld.pid
SlurmdPidFile=$T/run/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
# the scheduler looks every 2 s, not every 60: a dependency that can never
# be met is judged so within the test's time
SchedulerParameters=sched_interval=2
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
# 16 CPUs said (config_overrides: whatever the machine has), so that the
# page's 8 tasks of 2 CPUs each run at once, as on a cluster
SlurmdParameters=config_overrides
NodeName=node0 NodeAddr=$ctld CPUs=16 RealMemory=4096 State=UNKNOWN
PartitionName=night Nodes=node0 Default=YES MaxTime=INFINITE State=UP
EOF
# slurmd 22.05 starts a cgroup plugin whatever the job plugins are
# (pgid, none): given an empty folder of its own, it neither needs the
# host's cgroups mounted (a container, a chroot) nor touches them
mkdir -p "$T/cgroup" || exit 99
printf 'CgroupPlugin=cgroup/v1\nCgroupMountpoint=%s\n' "$T/cgroup" \
    >"$T/cgroup.conf" || exit 99
export SLURM_CONF="$T/slurm.conf"
slurmctld -D -i >"$T/log/slurmctld.out" 2>&1 &
daemons="$! $daemons"
slurmd -D -N node0 >"$T/log/slurmd.out" 2>&1 &
daemons="$! $daemons"
node_idle() { [ "$(sinfo -h -n node0 -o %T 2>/dev/null)" = idle ]; }
wait_for 60 "idle node" node_idle || { show_logs; exit 99; }
# what listens, on which address: loopback only
if command -v ss >/dev/null 2>&1; then
    listening=$(ss -ltnH "( sport = :$cport or sport = :$dport )" |
        awk '{ print $4 }' | sort -u | tr '\n' ' ')
    if check_eq "the daemons' addresses" \
           "$(printf '%s\n' "$ctld:$cport" "$ctld:$dport" | sort | tr '\n' ' ')" \
           "$listening"
    then ok; else ko "loopback only"; fi
fi

# ------------------------------------------------------------- the recipe
# block K of the page's Slurm section (```sh fences, from 1)
block() {
    awk -v k="$1" '
        /^## / { in_section = ($0 == "## Slurm: a job array") }
        in_section && /^```sh$/ { n++; inside = (n == k); next }
        inside && /^```$/ { inside = 0; next }
        inside { print }' "$TOP_SRCDIR/docs/cluster.md"
}
D=$T/data
mkdir -p "$D" "$T/bin" || exit 99
cp -R "$TOP_SRCDIR/samples/night" "$TOP_SRCDIR/samples/tools" "$D/" &&
    ln -s "$REPLAY" "$T/bin/replay" || exit 99
export PATH="$T/bin:$PATH"
script=$(block 1)
for path in /data/tools /data/night/; do
    if [ "$(printf '%s\n' "$script" | grep -c "$path")" != 1 ]; then
        echo "ERROR: the page's job script does not name $path once"
        printf '%s\n' "$script"
        exit 99
    fi
done
shards=$(printf '%s\n' "$script" | sed -n 's/^export TASKREPLAY_SHARDS=//p')
array=$(printf '%s\n' "$script" | sed -n 's/^#SBATCH --array=//p')
if ! check_eq "the script's array and its N" "0-$((shards - 1))" "$array"
then
    ko "the job script"
    exit 1
fi
submit=$(block 2)
rerun=$(block 3)
[ -n "$submit" ] && [ -n "$rerun" ] || { echo "ERROR: no blocks"; exit 99; }

# night WORK NIGHT: a folder to submit from, with the page's job script
# reading NIGHT
night() {
    mkdir -p "$T/$1" &&
        printf '%s\n' "$script" |
        sed -e "s|/data/tools|$D/tools|" -e "s|/data/night/|$D/$2/|" \
            >"$T/$1/replay-night.sh"
}
# submit WORK: the page's commands, in WORK; sets jobid and merge
submit() {
    set -- $(cd "$T/$1" && eval "$submit" && echo "$jobid $merge")
    jobid=${1:-} merge=${2:-}
    [ -n "$merge" ] || { echo "ERROR: sbatch said no job"; show_logs; exit 99; }
}
# state JOB: its state and reason ("" once Slurm has forgotten it)
state() {
    squeue -h -t all -j "$1" -o '%T %r' 2>/dev/null
}
# done_with JOB: the job has ended, well or not
done_with() {
    case $(state "$1") in
    ''|PENDING*|RUNNING*|CONFIGURING*|COMPLETING*) return 1 ;;
    esac
}
# held JOB: Slurm has judged JOB's dependency one that can never be met
# (it says "Dependency" until its scheduler next looks, some seconds later)
held() {
    [ "$(state "$1")" = "PENDING DependencyNeverSatisfied" ]
}
tasks_done() {
    [ -z "$(squeue -h -j "$jobid" -t PENDING,RUNNING,CONFIGURING,COMPLETING \
        -o %i 2>/dev/null)" ]
}
# expect WORK NIGHT I...: what task I's log says, into $T/expect-WORK-I:
# line 1 as Slurm's variables give it, the rest what one process says with
# --shard I/N, in a copy of WORK's folders
expect() {
    ex_work=$1 ex_night=$2
    shift 2
    mkdir -p "$T/local-$ex_work/shards" || return 1
    for ex_i; do
        (cd "$T/local-$ex_work" &&
            echo "replay: shard $ex_i/$shards (from SLURM_ARRAY_TASK_ID and TASKREPLAY_SHARDS)" &&
            replay --quiet --problems-ok --tools-dir "$D/tools" \
                --shard "$ex_i/$shards" --db "shards/shard-$ex_i.db" \
                "$D/$ex_night/" 2>&1) >"$T/expect-$ex_work-$ex_i"
    done
}
# expect_merge WORK: what the merge says, into $T/expect-WORK-merge
expect_merge() {
    (cd "$T/local-$1" && replay merge results.db shards/shard-*.db) \
        >"$T/expect-$1-merge" 2>&1
}
# one NIGHT: the database one process writes in a folder beside the
# merge's (problems are keyed from the database's folder), and its dump
one() {
    mkdir -p "$T/one-$1" || return 1
    replay --quiet --tools-dir "$D/tools" --db "$T/one-$1/results.db" \
        "$D/$1" 2>/dev/null
    db_dump "$T/one-$1/results.db" >"$T/one-$1.dump"
}
# logs_as_expected WORK JOB I...: each task's log as expected
logs_as_expected() {
    le_work=$1 le_job=$2
    shift 2
    le_good=0
    for le_i; do
        check_eq "task $le_i's log" "$(cat "$T/expect-$le_work-$le_i")" \
            "$(cat "$T/$le_work/slurm-${le_job}_$le_i.out")" || le_good=1
    done
    return $le_good
}
# episodes_once WORK NIGHT: every episode of the night in exactly one shard
episodes_once() {
    for f in "$T/$1"/shards/shard-*.db; do
        sqlite3 "$f" "SELECT run || ' ' || episode FROM episodes"
    done | sort >"$T/$1.episodes"
    check_eq "episodes in more than one shard" "" \
        "$(uniq -d "$T/$1.episodes")" &&
    check_eq "episodes over the shards" \
        "$(sqlite3 "$T/one-$2/results.db" 'SELECT count(*) FROM episodes')" \
        "$(wc -l <"$T/$1.episodes" | tr -d ' ')"
}
# What one process says and writes is made while Slurm works (in the
# background, waited for before it is read).
all="0 1 2 3 4 5 6 7"

# 1. A night whose task 3 fails: its database is a folder.
night a night || exit 99
mkdir -p "$T/a/shards/shard-3.db" "$T/local-a/shards/shard-3.db" || exit 99
submit a
{ one night; expect a night $all; } &
local_work=$!
wait_for 90 "end of the array's tasks" tasks_done || { show_logs; ko "night a"; exit 1; }
wait $local_work
wait_for 60 "judgement of the merge's dependency" held "$merge"
if logs_as_expected a "$jobid" $all &&
   check_eq "task 3" "FAILED NonZeroExitCode" "$(state "${jobid}_3")" &&
   check_eq "the merge" "PENDING DependencyNeverSatisfied" "$(state "$merge")" &&
   check_eq "results.db" "" "$(cd "$T/a" && ls results.db* 2>/dev/null)"
then ok; else ko "a failed task holds the merge"; fi

# ... fixed, requeued, merged after it.
rmdir "$T/a/shards/shard-3.db" "$T/local-a/shards/shard-3.db" || exit 99
old_merge=$merge
set -- $(cd "$T/a" && eval "$rerun" && echo "$merge") || exit 99
merge=${1:-}
{ expect a night 3; expect_merge a; } &
local_work=$!
wait_for 90 "end of the merge after the rerun" done_with "$merge" ||
    { show_logs; ko "the rerun"; exit 1; }
wait $local_work
if check_eq "task 3 rerun" "COMPLETED None" "$(state "${jobid}_3")" &&
   logs_as_expected a "$jobid" 3 &&
   check_eq "the first merge" "CANCELLED DependencyNeverSatisfied" \
       "$(state "$old_merge")" &&
   check_eq "the merge after the rerun" "COMPLETED None" "$(state "$merge")" &&
   check_eq "its log" "$(cat "$T/expect-a-merge")" \
       "$(cat "$T/a/slurm-$merge.out")" &&
   check_eq "merged after a rerun equals one process" \
       "$(cat "$T/one-night.dump")" "$(db_dump "$T/a/results.db")" &&
   episodes_once a night
then ok; else ko "a task rerun and merged"; fi

# 2. Task 5 submitted again on its own: Slurm says it is 5 of 1, from 5;
# the script's N keeps it shard 5/8, and its database unchanged.
five=$(cd "$T/a" && sbatch --parsable --array=5 replay-night.sh) || exit 99
expect a night 5 &
local_work=$!
wait_for 60 "end of task 5 on its own" done_with "${five}_5" || { show_logs; exit 1; }
wait $local_work
if check_eq "task 5 on its own" "COMPLETED None" "$(state "${five}_5")" &&
   logs_as_expected a "$five" 5
then ok; else ko "a task submitted on its own"; fi

# 3. A night with a line that is not JSON: recorded, said, and merged.
mkdir -p "$D/bad" && cp "$D"/night/*.jsonl "$D/bad/" &&
    printf '{"type": "episode", "run": \n' >>"$D/bad/careful.jsonl" || exit 99
night b bad || exit 99
submit b
{ one bad; expect b bad $all; expect_merge b; } &
local_work=$!
wait_for 90 "end of the merge of a night with a problem" done_with "$merge" ||
    { show_logs; ko "night b"; exit 1; }
wait $local_work
if logs_as_expected b "$jobid" $all &&
   check_eq "the merge" "COMPLETED None" "$(state "$merge")" &&
   check_eq "its log" "$(cat "$T/expect-b-merge")" \
       "$(cat "$T/b/slurm-$merge.out")" &&
   check_eq "merged with a problem equals one process" \
       "$(cat "$T/one-bad.dump")" "$(db_dump "$T/b/results.db")" &&
   check_eq "the problem, once" "1" \
       "$(sqlite3 "$T/b/results.db" 'SELECT count(*) FROM problems')" &&
   episodes_once b bad
then ok; else ko "a night with a problem"; fi

stop
echo "slurm: $pass passed, $fail failed ($(($(date +%s) - began)) s)"
[ "$fail" -eq 0 ]
