#!/bin/bash
# As the upstream image's entry point: bind on the container's address, render the config template
# from the environment (DB, POSTGRES_SEEDS, DBNAME, NUM_HISTORY_SHARDS, DYNAMIC_CONFIG_FILE_PATH, …),
# start the services SERVICES names (colon- or comma-separated; all when empty).
# Upstream renders the template with dockerize, which is not on the reachable registries; the server
# renders templates itself (sprig) when the file says `enable-template`, so `.Env.X` becomes `env "X"`.
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
  sed -E 's/\.Env\.([A-Za-z0-9_]+)/(env "\1")/g' /etc/temporal/config/config_template.yaml
} > /etc/temporal/config/docker.yaml
flags=()
for service in ${SERVICES//[:,]/ }; do flags+=("--service=$service"); done
exec temporal-server --env docker start "${flags[@]}"
