# Known answers: the reference page's tool file, a reformatted copy and a
# YAML rendering share the contract hash the reference gives, each with its
# own file hash; --canonical prints the text that hash is taken of.
set -u
cd "$TOP_SRCDIR/samples/tools" || exit 99
pass=0 fail=0

check() { # name expected got
    if [ "$2" = "$3" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        printf 'FAIL %s\n--- expected\n%s\n--- got\n%s\n' "$1" "$2" "$3"
    fi
}

want='4acacf4693dbcbc81c0cc9e98ed4d2e017a2189edcfa89e0fba05e7433e4fd54  cf8af7f03f9931e506b7ba9a67ad16386c55be943bc2eb31e1f97e1d0b659157  shop.json
820faf611389d78073fb9661be2b380808c64e8dd77a061fb15579782c7568a9  cf8af7f03f9931e506b7ba9a67ad16386c55be943bc2eb31e1f97e1d0b659157  shop-reformatted.json
20706331147f32079ef1f855f68a629622a3e3b237f455ed166a46b56430693d  cf8af7f03f9931e506b7ba9a67ad16386c55be943bc2eb31e1f97e1d0b659157  shop.yaml'
got=$("$REPLAY" hash shop.json shop-reformatted.json shop.yaml 2>&1)
check "three renderings, one contract" "$want" "$got"

# The same bytes on standard input.
got=$("$REPLAY" hash - < shop.yaml 2>&1)
check "standard input" "20706331147f32079ef1f855f68a629622a3e3b237f455ed166a46b56430693d  cf8af7f03f9931e506b7ba9a67ad16386c55be943bc2eb31e1f97e1d0b659157  -" "$got"

# replay tools reads standard input too, and names it <stdin>.
got=$("$REPLAY" tools - < shop.yaml 2>&1 | head -1)
check "tools on standard input" "<stdin>: OpenAI tools, 5 tools, 0 refused" "$got"

# Past the size limit (64 MiB), a file and standard input are refused in
# one line, before any parsing.
big=$(mktemp) || exit 99
trap 'rm -f "$big"' EXIT
truncate -s 65M "$big"
got=$("$REPLAY" hash "$big" 2>&1 >/dev/null)
check "file size limit" "$big: file is larger than the limit of 64 MiB for a tool file; split it or trim it" "$got"
got=$("$REPLAY" hash - < "$big" 2>&1 >/dev/null)
check "input size limit" "<stdin>: input is larger than the limit of 64 MiB for a tool file; split it or trim it" "$got"

# The canonical text hashes to the contract hash.
sum=$("$REPLAY" hash --canonical shop.yaml | tr -d '\n' | sha256sum | cut -d' ' -f1)
check "canonical text" cf8af7f03f9931e506b7ba9a67ad16386c55be943bc2eb31e1f97e1d0b659157 "$sum"
got=$("$REPLAY" hash --canonical shop.json | head -c 80)
check "canonical start" '[{"function":{"description":"Look up one order by its id.","name":"get_order","p' "$got"

# A refused file among good ones: the others still hash, exit status 1.
"$REPLAY" hash shop.json "$TOP_SRCDIR/tests/refusals/yaml-nan.yaml" >/dev/null 2>&1
check "exit status with a refused file" 1 $?
got=$("$REPLAY" hash shop.json /nonexistent/tools.json 2>&1 >/dev/null)
check "missing file" "/nonexistent/tools.json: cannot open: No such file or directory" "$got"

# The generator's version and fingerprint, pinned: a change to anything
# the generator produces changes the fingerprint, and must come with a new
# GENERATOR_VERSION (src/generator_version.h) and this line updated.
got=$("$REPLAY" --version | sed -n 2p)
check "generator fingerprint" "generator 4, fingerprint dc841fa62b712dbae353e4ff6d036a346cd56bcc50be390b405300ec1567e4f6" "$got"

# Usage errors: exit status 2.
"$REPLAY" hash >/dev/null 2>&1
check "no file" 2 $?
"$REPLAY" hash --frobnicate shop.json >/dev/null 2>&1
check "unknown option" 2 $?
"$REPLAY" >/dev/null 2>&1
check "no command" 2 $?
got=$("$REPLAY" tools shop.json shop.yaml 2>&1 | head -1)
check "tools: one file at a time" "replay: tools: one FILE at a time" "$got"
"$REPLAY" tools --yaml shop.json >/dev/null 2>&1
check "tools: unknown option" 2 $?
"$REPLAY" tools >/dev/null 2>&1
check "tools: no file" 2 $?

echo "hash known answers: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
