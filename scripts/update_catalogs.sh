#!/usr/bin/env bash
# Re-extract the template and engine words, then merge them into each language's catalog.
# New entries arrive untranslated (a warning, an error under --strict) until translated.
set -euo pipefail
cd "$(dirname "$0")/.."
pybabel extract -F babel.cfg -k N_ --no-location --sort-output --omit-header \
    -o locales/messages.pot .
for po in locales/*/LC_MESSAGES/messages.po; do
    lang=$(basename "$(dirname "$(dirname "$po")")")
    pybabel update -i locales/messages.pot -d locales -l "$lang" \
        --no-fuzzy-matching --width 100
done
