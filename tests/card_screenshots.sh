#!/bin/sh
# tests/card_screenshots.sh: `make screenshots`.  The pictures docs/card.md
# shows (docs/img/night-*.png): the night's index, a run's card and a
# compare, written by card --html --all from the samples night replayed
# afresh, as headless Chromium shows the first screen of each (what the
# eye lands on) at 1280x800 and as a 390x844 phone, in the light scheme.
# Environment: REPLAY, CARD, TOP_SRCDIR, PYTHON3 (python3), CHROMIUM
# (chromium on PATH).
set -eu
top=${TOP_SRCDIR:?}
py=${PYTHON3:-python3}
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$chromium" ] || { echo "screenshots: no chromium (apt-get install chromium)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/card-screenshots.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# the same replay time each time
export SOURCE_DATE_EPOCH=1790000000
(cd "$top/samples/night" && timeout 300 "${REPLAY:?}" --quiet \
    --tools-dir "$top/samples/tools" --db "$tmp/r.db" .)
timeout 120 "${CARD:?}" --db "$tmp/r.db" --html --all -o "$tmp/night" --baseline careful
for page in index run-sloppy compare-sloppy-vs-careful; do
    file=$(ls "$tmp/night/$page"*.html)
    name=$(echo "$page" | sed 's/^run-.*/card/; s/^compare-.*/compare/')
    timeout 300 "$py" "$top/tests/card_browser.py" shot "$chromium" "$file" \
        "$top/docs/img/night-$name-1280.png" 1280 800
    timeout 300 "$py" "$top/tests/card_browser.py" shot "$chromium" "$file" \
        "$top/docs/img/night-$name-390.png" 390 844 phone
    echo "docs/img/night-$name-1280.png docs/img/night-$name-390.png"
done
