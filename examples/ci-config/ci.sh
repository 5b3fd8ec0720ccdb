#!/usr/bin/env bash
# The hub's configuration kept in git next to this script, as hub.yaml:
#   ci.sh plan    a pull request's check: prints what merging would change (passes whether or not it would)
#   ci.sh apply   on merge: applies hub.yaml, then checks that the hub now matches it
#   ci.sh drift   on a schedule: fails when someone changed the hub by hand since the last apply
# Needs CBH_URL and CBH_TOKEN (a token with import_data) and, in a checkout of the hub, `npx nx run cli:build` once.
set -uo pipefail
cd "$(dirname "$0")"
PRUNE=${CBH_PRUNE:+--prune}

case "${1:-}" in
  plan)
    npx cbh diff hub.yaml $PRUNE
    status=$?
    # 2 is the answer a pull request is for: there are changes to review
    [ "$status" -eq 2 ] && exit 0
    exit "$status"
    ;;
  apply)
    npx cbh apply hub.yaml $PRUNE || exit 1
    npx cbh diff hub.yaml $PRUNE
    ;;
  drift)
    npx cbh diff hub.yaml $PRUNE
    ;;
  *)
    echo "usage: $0 plan|apply|drift" >&2
    exit 1
    ;;
esac
