#!/bin/sh
# As the upstream image's entry point, for what this project uses: as root, hand /data to the seaweed
# user and continue as it; `mini` logs to stderr and keeps its data in /data unless given -dir;
# anything else is a weed subcommand.
set -e
if [ "$(id -u)" = 0 ]; then
  chown seaweed:seaweed /data
  exec setpriv --reuid=seaweed --regid=seaweed --init-groups "$0" "$@"
fi
case "$1" in
  mini)
    shift
    case " $* " in
      *" -dir="*|*" -dir "*|*" --dir="*|*" --dir "*) exec /usr/bin/weed -logtostderr=true mini "$@" ;;
      *) exec /usr/bin/weed -logtostderr=true mini -dir=/data "$@" ;;
    esac
    ;;
  *) exec /usr/bin/weed "$@" ;;
esac
