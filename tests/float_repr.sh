#!/bin/sh
# float_repr.sh: pyfloat_repr() against Python's repr(float) on FLOATS
# (default 200000) doubles drawn by tests/floatrepr.  Skipped (77) without a
# working Python 3.
#
# Environment: FLOATREPR (the floatrepr binary), PYTHON3 (the interpreter),
# TOP_SRCDIR (the source tree), FLOATS (how many doubles, optional).

if [ -z "${PYTHON3:-}" ] || ! "$PYTHON3" -c 'import struct' >/dev/null 2>&1
then
    echo "float_repr: no usable python3, skipped"
    exit 77
fi
if [ ! -x "${FLOATREPR:-}" ]; then
    echo "float_repr: FLOATREPR is not an executable: ${FLOATREPR:-unset}"
    exit 99
fi
count=${FLOATS:-200000}
oracle=$TOP_SRCDIR/tests/float_oracle.py

# A crash of floatrepr must fail the test even if the lines it wrote before
# passed.  Shells without pipefail (dash) keep its status in a file instead.
if (set -o pipefail) 2>/dev/null; then
    set -o pipefail
    "$FLOATREPR" "$count" | "$PYTHON3" "$oracle"
    exit $?
fi
status=$(mktemp "${TMPDIR:-/tmp}/float_repr.XXXXXX") || exit 99
trap 'rm -f "$status"' EXIT
{ "$FLOATREPR" "$count"; echo $? >"$status"; } | "$PYTHON3" "$oracle"
rc=$?
read -r producer <"$status"
if [ "$producer" != 0 ]; then
    echo "float_repr: floatrepr exited with status $producer"
    exit 1
fi
exit $rc
