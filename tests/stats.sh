# The statistics of cards and compares (src/stats.c) against an oracle
# written apart from them (tests/stats_oracle.py: Tango's interval by a
# numeric profile likelihood, McNemar's p-value and pass^k exactly in
# fractions), on hand-picked cases: no discordant pair, all discordant,
# ties, n = 1, large n, k above n.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
: "${STATCHECK:?}"
cases="tango 0 0 1
tango 1 0 1
tango 0 1 1
tango 0 0 10
tango 5 0 5
tango 0 5 5
tango 3 3 10
tango 7 3 10
tango 2 1 30
tango 10 2 50
tango 96 0 96
tango 0 0 96
tango 40 60 1000
tango 12 0 3000
tango 500 499 100000
mcnemar 0 0
mcnemar 1 0
mcnemar 0 1
mcnemar 5 0
mcnemar 3 3
mcnemar 10 2
mcnemar 2 10
mcnemar 96 0
mcnemar 300 280
mcnemar 1000 1000
mcnemar 5000 4000
passk 0 1 1
passk 1 1 1
passk 2 3 1
passk 2 3 2
passk 2 3 3
passk 3 3 3
passk 5 10 4
passk 1 3 4
passk 7 8 0
mean 0.5
mean 1 0
mean 0 0 0
mean 1 -1 0.5 0.25 -0.5
mean 0.3333333333333333 -0.6666666666666666 0 1 0
wilson 0 1
wilson 1 1
wilson 48 96
wilson 0 0"
printf '%s\n' "$cases" | "$STATCHECK" | "$PYTHON3" "$TOP_SRCDIR/tests/stats_oracle.py"
