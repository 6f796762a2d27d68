#!/bin/sh
# As the upstream image's entry point: a first argument that is an option, or no command on PATH,
# is given to node; anything else runs as it is.
set -e
if [ "${1#-}" != "$1" ] || [ -z "$(command -v "$1" || true)" ]; then
  set -- node "$@"
fi
exec "$@"
