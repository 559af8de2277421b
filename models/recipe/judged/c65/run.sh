#!/bin/sh
# C65 as RULE.txt gives it, from the repository's root, after C64's run.sh.
set -e
rm -rf artifacts/c65 && mkdir -p artifacts/c65 && cp -r artifacts/c64/models artifacts/c65/models
.venv/bin/companion bench vision --data ../shared/data/dice --calibrate \
    --models artifacts/c65/models > artifacts/c65/calibrate.log 2>&1
