# Drawn values conform to their schemas: every tool of the sample and test
# tool files, 2,000 seeds each; every tool of the real tool files under
# ../shared/corpus (when present), 20 seeds each.
set -u

"$DRAWCHECK" --seeds 2000 "$TOP_SRCDIR"/samples/tools/* \
    "$TOP_SRCDIR"/tests/tools/*.json "$TOP_SRCDIR"/tests/tools/*.yaml \
    "$TOP_SRCDIR"/tests/fidelity/*.json "$TOP_SRCDIR"/tests/fidelity/*.yaml ||
    exit 1
if [ -d "$CORPUS" ]; then
    find "$CORPUS" -type f ! -name README.md ! -name SOURCES.tsv | sort |
        xargs "$DRAWCHECK" --seeds 20 || exit 1
fi
