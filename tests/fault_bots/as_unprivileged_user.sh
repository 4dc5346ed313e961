#!/usr/bin/env bash
# Runs the attack suite as a user that is not root: the sandbox such a user gets (the arbiter's
# own namespaces in a user namespace of its own, or bubblewrap) must refuse every attack the root
# arbiter's refuses. Under a root test run it drops to the unprivileged `nobody` (setpriv: no
# groups, no capabilities); run by a non-root user it runs the programs as they are.
#   as_unprivileged_user.sh TEST_PROGRAM...
set -euo pipefail
run=()
if [ "$(id -u)" -eq 0 ]; then
  nobody=$(id -u nobody 2>/dev/null || echo 65534)
  # Every folder down to the programs must let others pass: a build under a 0700 home cannot be
  # run by another user, so the check is skipped there, and says so.
  for program in "$@"; do
    dir=$(dirname "$(realpath "$program")")
    while [ "$dir" != "/" ]; do
      if ! setpriv --reuid="$nobody" --regid="$nobody" --clear-groups test -x "$dir"; then
        echo "skipped: the unprivileged user cannot enter $dir (the build lies under a folder closed to others)"
        exit 0
      fi
      dir=$(dirname "$dir")
    done
  done
  run=(setpriv --reuid="$nobody" --regid="$nobody" --clear-groups --inh-caps=-all --bounding-set=-all env HOME=/tmp)
fi
status=0
for program in "$@"; do
  echo "== $(basename "$program") as $("${run[@]}" id -un 2>/dev/null || id -un)"
  "${run[@]}" "$program" || status=1
done
exit $status
