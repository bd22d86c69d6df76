#!/usr/bin/env bash
# Start (or stop) the servers the PostgreSQL and Elasticsearch tests need, on loopback only.
#
#   eval "$(bash tests/services.sh start)"   # prints the export lines the tests read
#   bash tests/services.sh stop
#   bash tests/services.sh node-start [DIR]      # another node, for a test that stops it: "DIR URL"
#   bash tests/services.sh node-stop DIR [--remove]
#
# PostgreSQL: the machine's own cluster (Debian's pg_ctlcluster), with a role `threadwise` and a
# database `threadwise_test` reached over TCP by password. Elasticsearch: the minimal distribution
# from Maven Central (org.elasticsearch.distribution.integ-test-zip, AGPL-3.0: run as an external
# test server, never shipped), fetched once by `mvn dependency:get`, unpacked once under
# $THREADWISE_SERVICES_CACHE, started as an unprivileged user on a free loopback port with a fresh
# data directory, one node, no security, 1 GB heap. Needs root (CI) or the rights to run pg_ctlcluster.
set -euo pipefail

ES_VERSION="${THREADWISE_ES_VERSION:-8.19.21}"
ES_ARTIFACT="org.elasticsearch.distribution.integ-test-zip:elasticsearch:${ES_VERSION}:zip"
# As root the node runs as another user, who cannot read root's home: the cache lives in /var/cache.
if [ "$(id -u)" = 0 ]; then DEFAULT_CACHE=/var/cache/threadwise; else DEFAULT_CACHE="$HOME/.cache/threadwise"; fi
CACHE="${THREADWISE_SERVICES_CACHE:-$DEFAULT_CACHE}"
STATE="$CACHE/run"
ES_USER="threadwise-es"
PG_ROLE="threadwise"
PG_PASSWORD="threadwise"
PG_DATABASE="threadwise_test"

# Only the lines the caller evaluates go to the original stdout (fd 3); everything else, including
# what the tools print (pg_ctlcluster's "Removed stale pid file."), goes to stderr. The servers are
# started with fd 3 closed, or the caller's $(...) would wait for them to exit.
exec 3>&1 1>&2
emit() { echo "$*" >&3; }
say() { echo "services: $*" >&2; }
die() { say "$*"; exit 1; }

as_user() {  # as_user USER COMMAND...: run a command as USER (from root), or as ourselves when we are USER
    local user="$1"
    shift
    if [ "$(id -un)" = "$user" ]; then "$@"; else su -s /bin/bash "$user" -c "$(printf '%q ' "$@")"; fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start_postgres() {
    command -v pg_lsclusters > /dev/null || die "PostgreSQL is not installed (Debian: apt-get install postgresql)"
    local cluster version name port status
    cluster="$(pg_lsclusters -h | head -n 1)"
    [ -n "$cluster" ] || die "no PostgreSQL cluster on this machine (Debian: pg_createcluster --start 15 main)"
    read -r version name port status _ <<< "$cluster"
    if [ "$status" != "online" ]; then
        say "starting PostgreSQL $version/$name on port $port"
        pg_ctlcluster "$version" "$name" start 3>&- || die "pg_ctlcluster $version $name start failed (see /var/log/postgresql/)"
        touch "$STATE/postgres.started"  # so `stop` stops only a cluster this script started
    fi
    for _ in $(seq 1 60); do
        pg_isready -q -h 127.0.0.1 -p "$port" && break
        sleep 0.5
    done
    pg_isready -q -h 127.0.0.1 -p "$port" || die "PostgreSQL $version/$name did not accept connections on 127.0.0.1:$port"
    as_user postgres psql -q -p "$port" -v ON_ERROR_STOP=1 > /dev/null << SQL
SELECT 'CREATE ROLE $PG_ROLE LOGIN PASSWORD ''$PG_PASSWORD'''
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PG_ROLE')\gexec
SELECT 'CREATE DATABASE $PG_DATABASE OWNER $PG_ROLE'
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$PG_DATABASE')\gexec
SQL
    emit "export THREADWISE_TEST_POSTGRES_URL=postgresql+asyncpg://$PG_ROLE:$PG_PASSWORD@127.0.0.1:$port/$PG_DATABASE"
    say "PostgreSQL $version ready: database $PG_DATABASE on 127.0.0.1:$port"
}

es_home() {
    local zip="$HOME/.m2/repository/org/elasticsearch/distribution/integ-test-zip/elasticsearch/$ES_VERSION/elasticsearch-$ES_VERSION.zip"
    local home="$CACHE/elasticsearch-$ES_VERSION"
    if [ ! -x "$home/bin/elasticsearch" ]; then
        if [ ! -f "$zip" ]; then
            say "fetching Elasticsearch $ES_VERSION from Maven Central (about 107 MB, once)"
            mvn -q -B dependency:get -Dartifact="$ES_ARTIFACT" >&2 || die "mvn dependency:get $ES_ARTIFACT failed"
        fi
        local staging
        staging="$(mktemp -d "$CACHE/.elasticsearch-XXXXXX")"
        python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$zip" "$staging"
        chmod -R a+rX "$staging"
        chmod a+x "$staging/elasticsearch-$ES_VERSION/bin/"*  # zipfile does not keep the execute bits
        rm -rf "$home"
        mv "$staging/elasticsearch-$ES_VERSION" "$home"
        rm -rf "$staging"
    fi
    echo "$home"
}

running_elasticsearch() {  # prints the URL of the node this script started, if it still answers
    local current="$STATE/elasticsearch.current" run
    [ -f "$current" ] || return 1
    run="$(cat "$current")"
    [ -f "$run/pid" ] && [ -f "$run/url" ] && kill -0 "$(cat "$run/pid")" 2> /dev/null || return 1
    curl -fsS "$(cat "$run/url")/_cluster/health" > /dev/null 2>&1 || return 1
    cat "$run/url"
}

start_node() {  # start_node RUN: a node with its data in RUN (new, or stopped: same port, same data)
    local run="$1" home port url java_home
    command -v java > /dev/null || die "Elasticsearch needs Java 17 or newer on PATH"
    home="$(es_home)"
    # The minimal distribution has no bundled JDK: the machine's Java runs it.
    java_home="${ES_JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
    if [ "$(id -u)" = 0 ]; then
        id "$ES_USER" > /dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$ES_USER"
    else
        ES_USER="$(id -un)"
    fi
    if [ -f "$run/url" ]; then
        url="$(cat "$run/url")"
        port="${url##*:}"
    else
        port="$(free_port)"
        url="http://127.0.0.1:$port"
        mkdir -p "$run/data" "$run/logs" "$run/config"
        # The node writes its keystore and reads its settings from its own config directory.
        cp -r "$home/config/." "$run/config/"
        echo "$url" > "$run/url"
    fi
    # The JVM's scratch files stay in the run directory (by default each start leaves one in /tmp).
    mkdir -p "$run/tmp"
    chown -R "$ES_USER" "$run" 2> /dev/null || true
    chmod 755 "$run"
    say "starting Elasticsearch $ES_VERSION on 127.0.0.1:$port (data in $run)"
    as_user "$ES_USER" env ES_PATH_CONF="$run/config" ES_TMPDIR="$run/tmp" ES_JAVA_OPTS="${THREADWISE_ES_JAVA_OPTS:--Xms1g -Xmx1g}" \
        ES_JAVA_HOME="$java_home" "$home/bin/elasticsearch" -d -p "$run/pid" \
        -E discovery.type=single-node -E xpack.security.enabled=false \
        -E network.host=127.0.0.1 -E http.port="$port" -E transport.port=0 \
        -E path.data="$run/data" -E path.logs="$run/logs" -E cluster.name=threadwise-test \
        -E action.destructive_requires_name=false > "$run/logs/console.log" 2>&1 3>&- \
        || die "Elasticsearch did not start; its log is in $run/logs"
    for _ in $(seq 1 240); do
        if curl -fsS "$url/_cluster/health?wait_for_status=yellow&timeout=1s" > /dev/null 2>&1; then
            say "Elasticsearch $ES_VERSION ready at $url"
            return 0
        fi
        sleep 0.5
    done
    die "Elasticsearch did not answer at $url within 120 s; its log is in $run/logs"
}

stop_node() {  # stop_node RUN: stop the node whose data is in RUN, and wait until it has exited
    local run="$1" pid
    [ -f "$run/pid" ] || return 0
    pid="$(cat "$run/pid")"
    kill "$pid" 2> /dev/null || true
    for _ in $(seq 1 60); do
        kill -0 "$pid" 2> /dev/null || break
        sleep 0.5
    done
    kill -9 "$pid" 2> /dev/null || true
    rm -f "$run/pid"
}

start_elasticsearch() {
    local run url
    if url="$(running_elasticsearch)"; then
        emit "export THREADWISE_ELASTICSEARCH_URL=$url"
        say "Elasticsearch already running at $url"
        return 0
    fi
    run="$(mktemp -d "$STATE/elasticsearch-XXXXXX")"
    start_node "$run"
    echo "$run" > "$STATE/elasticsearch.current"
    emit "export THREADWISE_ELASTICSEARCH_URL=$(cat "$run/url")"
}

stop_elasticsearch() {
    local current="$STATE/elasticsearch.current" run
    [ -f "$current" ] || return 0
    run="$(cat "$current")"
    stop_node "$run"
    rm -rf "$run" "$current"
    say "Elasticsearch stopped"
}

stop_postgres() {  # only a cluster this script started; one that was already running stays up
    local version name
    [ -f "$STATE/postgres.started" ] || return 0
    read -r version name _ <<< "$(pg_lsclusters -h | head -n 1)"
    [ -n "${version:-}" ] && pg_ctlcluster "$version" "$name" stop 2> /dev/null && say "PostgreSQL stopped" || true
    rm -f "$STATE/postgres.started"
}

mkdir -p "$STATE"
chmod 755 "$CACHE" "$STATE"
case "${1:-}" in
    start)
        # THREADWISE_SERVICES=postgres starts PostgreSQL only.
        start_postgres
        case "${THREADWISE_SERVICES:-postgres,elasticsearch}" in
            *elasticsearch*) start_elasticsearch ;;
        esac
        ;;
    stop)
        stop_elasticsearch
        [ "${2:-}" = "--keep-postgres" ] || stop_postgres
        ;;
    node-start)
        # A node of its own for a test that stops it (the fault tests): prints its data directory
        # and URL; given a stopped node's directory, starts it again on the same port and data.
        run="${2:-$(mktemp -d "$STATE/node-XXXXXX")}"
        start_node "$run"
        emit "$run $(cat "$run/url")"
        ;;
    node-stop)
        [ -n "${2:-}" ] || die "usage: bash tests/services.sh node-stop DIR [--remove]"
        stop_node "$2"
        if [ "${3:-}" = "--remove" ]; then rm -rf "$2"; fi
        ;;
    *)
        die "usage: bash tests/services.sh start|stop [--keep-postgres] | node-start [DIR] | node-stop DIR [--remove]"
        ;;
esac
