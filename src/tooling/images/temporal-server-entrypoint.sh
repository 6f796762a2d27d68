#!/bin/bash
# As the upstream image's entry point: bind on the container's address, render the config template
# from the environment (DB, POSTGRES_SEEDS, DBNAME, NUM_HISTORY_SHARDS, DYNAMIC_CONFIG_FILE_PATH, …),
# start the services SERVICES names (colon- or comma-separated; all when empty).
# Upstream renders the template with dockerize, which is not on the reachable registries; the server
# renders templates itself (sprig) when the file says `enable-template`. So `.Env.X` becomes `env "X"`,
# and the two functions whose arguments sprig takes the other way round are turned: dockerize's
# `default VALUE FALLBACK` is sprig's `default FALLBACK VALUE`, its `split STRING SEP` sprig's
# `splitList SEP STRING`.
set -euo pipefail
: "${BIND_ON_IP:=$(getent hosts "$(hostname)" | awk '{print $1; exit}')}"
export BIND_ON_IP
if [[ "$BIND_ON_IP" == 0.0.0.0 || "$BIND_ON_IP" == ::0 ]]; then
  : "${TEMPORAL_BROADCAST_ADDRESS:=$(getent hosts "$(hostname)" | awk '{print $1; exit}')}"
  export TEMPORAL_BROADCAST_ADDRESS
fi
: "${TEMPORAL_ADDRESS:=$BIND_ON_IP:7233}"
export TEMPORAL_ADDRESS
{
  echo '# enable-template'
  sed -E -e 's/default \.Env\.([A-Za-z0-9_]+) ("[^"]*"|\$[A-Za-z0-9_]+)/default \2 (env "\1")/g' \
    -e 's/split \.Env\.([A-Za-z0-9_]+) ("[^"]*")/splitList \2 (env "\1")/g' \
    -e 's/\.Env\.([A-Za-z0-9_]+)/(env "\1")/g' /etc/temporal/config/config_template.yaml
} > /etc/temporal/config/docker.yaml
flags=()
for service in ${SERVICES//[:,]/ }; do flags+=("--service=$service"); done
exec temporal-server --env docker start "${flags[@]}"
