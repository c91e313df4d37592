# Stands for the unit tests (tests/check_unit) where configure found no
# Check: make check says they were skipped, and why.
echo "skipped: the unit tests need the Check library, which configure did not find (Debian: apt-get install check, then run configure again)"
exit 77
