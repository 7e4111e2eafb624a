#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests: `make test` runs the suite through it.
#
#   Tests/postgres/cluster.sh run -- COMMAND [ARGS...]   start a server, run COMMAND, stop and delete it
#   Tests/postgres/cluster.sh shell                      the same with an interactive $SHELL
#
# COMMAND sees PHOTOSYNC_TEST_POSTGRES_URL=postgresql://ROLE:PASSWORD@127.0.0.1:PORT/photosync_test,
# and PHOTOSYNC_TEST_POSTGRES_DATA / _BIN (the data folder and server binaries, to restart it).
# The role owns photosync_test and has CREATEDB (tests make a schema or a database each); it must
# give its password over TCP (scram-sha-256). The server listens on a free loopback port only,
# keeps its data and socket in a fresh temporary folder, and runs with fsync off: it is thrown
# away when COMMAND ends, fails or is interrupted. The exit status is COMMAND's.
# It speaks TLS too (libpq's default sslmode=prefer uses it): PHOTOSYNC_TEST_POSTGRES_CA names the
# CA file that signed its certificate (for 127.0.0.1 and localhost), for sslmode=verify-full tests.
#
# A developer with a server of their own sets PHOTOSYNC_TEST_POSTGRES_URL (same shape, a role with
# CREATEDB) and this script only runs COMMAND. PHOTOSYNC_TEST_POSTGRES_BINDIR picks the server's
# binaries (default: the newest /usr/lib/postgresql/*/bin). Try it by hand:
#   Tests/postgres/cluster.sh run -- bash -c 'psql "$PHOTOSYNC_TEST_POSTGRES_URL" -c "select version()"'
#
# Needs the server binaries (Debian: `postgresql`, which `make test` installs). Without them, or
# when the server does not start, it prints one line on stderr and exits 1: never a silent skip.
# As root the server runs as the `postgres` user (PostgreSQL refuses to run as root).
set -euo pipefail

readonly ROLE=photosync_test
readonly DATABASE=photosync_test
readonly MAX_CONNECTIONS=200
readonly START_ATTEMPTS=5

folder=""       # the temporary folder: data/, the socket, the server log
bindir=""       # the server's binaries (initdb, pg_ctl, postgres, psql)
child=""        # COMMAND's pid while it runs
signal_status="" # 128 + the signal that stopped us, once one has
timer=""        # the process that escalates to TERM, then KILL, after a signal
watchdog=""     # the detached process that cleans up if we are killed with SIGKILL

fail() {
    echo "cluster.sh: $*" >&2
    exit 1
}

usage() {
    echo "usage: $0 run -- COMMAND [ARGS...] | $0 shell" >&2  # (watch is internal: see start_watchdog)
    exit 2
}

is_root() { [ "$(id -u)" = 0 ]; }

# Runs a server binary as the folder's owner: `postgres` when we are root.
as_owner() {
    if is_root; then
        (cd "$folder" && runuser -u postgres -- "$@")
    else
        "$@"
    fi
}

# PHOTOSYNC_TEST_POSTGRES_BINDIR if set (to try another version), else the newest installed
# server, else the one pg_config names, else one on PATH.
find_bindir() {
    local dir candidates
    if [ -n "${PHOTOSYNC_TEST_POSTGRES_BINDIR:-}" ]; then
        candidates=$PHOTOSYNC_TEST_POSTGRES_BINDIR
    else
        candidates="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r) $(pg_config --bindir 2>/dev/null || true)
            $(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")"
    fi
    for dir in $candidates; do
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/psql" ]; then
            bindir=$dir
            return
        fi
    done
    fail "no PostgreSQL server found (initdb, pg_ctl, psql in ${PHOTOSYNC_TEST_POSTGRES_BINDIR:-/usr/lib/postgresql/*/bin}): install the Debian package postgresql ('make setup-test') or set PHOTOSYNC_TEST_POSTGRES_URL to a server of your own"
}

make_folder() {
    folder=$(mktemp -d "${TMPDIR:-/tmp}/photosync-pg.XXXXXX") || fail "cannot create a temporary folder in ${TMPDIR:-/tmp}"
    # The socket path (folder + /.s.PGSQL.PORT) must fit in sun_path (107 bytes).
    [ "${#folder}" -le 80 ] || fail "temporary folder path too long for a socket: $folder (set TMPDIR to a shorter folder)"
    if is_root; then
        id postgres >/dev/null 2>&1 || fail "running as root needs the 'postgres' user (Debian package postgresql creates it)"
        chown postgres: "$folder"
        runuser -u postgres -- test -w "$folder" \
            || fail "user postgres cannot write $folder (set TMPDIR to a folder it can reach)"
    fi
}

random_hex() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }

# A port the kernel says is free now; start_server retries when another process takes it first.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null \
        || echo $((20000 + RANDOM % 12000))
}

init_cluster() {
    as_owner "$bindir/initdb" -D "$folder/data" -U postgres -E UTF8 --locale=C.UTF-8 --no-sync \
        --auth-local=trust --auth-host=reject >"$folder/initdb.log" 2>&1 \
        || fail "initdb failed: $(grep -m1 -iE 'error|fatal' "$folder/initdb.log" || tail -n1 "$folder/initdb.log")"
    # The socket lives in the private folder (0700), so trust there reaches only us; TCP needs the password.
    cat >"$folder/data/pg_hba.conf" <<'EOF'
local all all                trust
host  all all 127.0.0.1/32   scram-sha-256
host  all all ::1/128        scram-sha-256
EOF
    cat >>"$folder/data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
ssl = on
ssl_cert_file = '$folder/tls/server.crt'
ssl_key_file = '$folder/tls/server.key'
unix_socket_directories = '$folder'
max_connections = $MAX_CONNECTIONS
fsync = off
synchronous_commit = off
full_page_writes = off
password_encryption = 'scram-sha-256'
EOF
}

# A CA of its own and a server certificate for 127.0.0.1 and localhost, so tests can check that
# sslmode=verify-full with sslrootcert=$PHOTOSYNC_TEST_POSTGRES_CA connects and a wrong CA fails.
make_certificates() {
    local tls=$folder/tls
    as_owner mkdir -m 0700 "$tls"
    echo "subjectAltName = IP:127.0.0.1, DNS:localhost" >"$folder/san.cnf"
    as_owner openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 7 \
        -subj "/CN=photosync test CA" -keyout "$tls/ca.key" -out "$tls/ca.crt" >"$folder/tls.log" 2>&1 \
        && as_owner openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
            -subj "/CN=127.0.0.1" -keyout "$tls/server.key" -out "$tls/server.csr" >>"$folder/tls.log" 2>&1 \
        && as_owner openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.crt" -CAkey "$tls/ca.key" \
            -CAcreateserial -days 7 -out "$tls/server.crt" -extfile "$folder/san.cnf" >>"$folder/tls.log" 2>&1 \
        || fail "could not make the test certificates with openssl: $(tail -n1 "$folder/tls.log")"
}

start_server() {
    local attempt
    for attempt in $(seq "$START_ATTEMPTS"); do
        port=$(free_port)
        rm -f "$folder/server.log"
        if as_owner "$bindir/pg_ctl" start -w -t 60 -D "$folder/data" -l "$folder/server.log" \
               -o "-p $port" >/dev/null 2>&1; then
            return
        fi
        grep -q 'Address already in use' "$folder/server.log" 2>/dev/null || break
    done
    fail "PostgreSQL did not start on 127.0.0.1:$port: $(server_log_reason)"
}

# The first line of the server log that says what went wrong, without its timestamp.
server_log_reason() {
    grep -m1 -E 'could not bind|FATAL|PANIC' "$folder/server.log" 2>/dev/null \
        | sed -E 's/^.*(LOG|FATAL|PANIC): +//' | grep . || echo "no reason in the server log"
}

create_role() {
    password=$(random_hex 18)
    # SQL on stdin, not argv: the password never shows in `ps`.
    as_owner "$bindir/psql" "host=$folder port=$port user=postgres dbname=postgres sslmode=disable" \
        -X -q -v ON_ERROR_STOP=1 >"$folder/setup.log" 2>&1 <<EOF || fail "could not create role $ROLE: $(head -n1 "$folder/setup.log")"
CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD '$password';
CREATE DATABASE $DATABASE OWNER $ROLE;
EOF
}

stop_server() {
    [ -f "$folder/data/postmaster.pid" ] || return 0
    as_owner "$bindir/pg_ctl" stop -D "$folder/data" -m fast -w -t 20 >/dev/null 2>&1 \
        || as_owner "$bindir/pg_ctl" stop -D "$folder/data" -m immediate -w -t 20 >/dev/null 2>&1 \
        || kill -KILL "$(head -n1 "$folder/data/postmaster.pid")" 2>/dev/null \
        || true
}

cleanup() {
    [ -n "$folder" ] || return 0
    [ -z "$watchdog" ] || kill "$watchdog" 2>/dev/null || true
    stop_server
    rm -rf "$folder"
    folder=""
}

# SIGKILL skips every trap (a CI timeout, `script` closing a terminal): a detached copy of this
# script then stops the server and deletes the folder once we are gone.
start_watchdog() {
    setsid "$BASH" "$0" watch "$$" "$folder" "$bindir" </dev/null >/dev/null 2>&1 &
    watchdog=$!
}

watch() {
    local owner=$1
    folder=$2
    bindir=$3
    trap '' INT HUP
    trap 'exit 0' TERM
    while is_running "$owner"; do sleep 1; done
    cleanup
}

# Passes the signal on to COMMAND; run_command then waits for it to end and the EXIT trap stops the
# server. A command that outlives the signal (bash waiting for a child the signal missed) gets
# TERM after 10 s, then KILL.
on_signal() {
    signal_status=$2
    [ -n "$child" ] || exit "$signal_status"
    kill -s "$1" "$child" 2>/dev/null || true
    ( sleep 10; kill -TERM "$child"; sleep 10; kill -KILL "$child" ) >/dev/null 2>&1 &
    timer=$!
    trap '' INT TERM HUP
}

# COMMAND runs in the background so a signal reaches our trap at once (bash defers traps while a
# foreground child runs); it keeps our stdin and default INT/QUIT handling.
run_command() {
    ( trap - INT QUIT; exec "$@" ) <&0 &
    child=$!
    local status=0
    wait "$child" || status=$?
    if [ -n "$signal_status" ]; then
        while is_running "$child"; do sleep 0.1; done
        kill "$timer" 2>/dev/null || true
        return "$signal_status"
    fi
    return "$status"
}

# Polls /proc: after a trap, bash's `wait` can miss the child's end and block until the timer's.
is_running() {
    local state
    state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
    [ -n "$state" ] && [ "$state" != Z ]
}

main() {
    [ $# -ge 1 ] || usage
    local mode=$1
    shift
    case $mode in
        run) [ "${1:-}" = "--" ] && shift; [ $# -ge 1 ] || usage ;;
        shell) [ $# -eq 0 ] || usage; set -- "${SHELL:-bash}" ;;
        watch) watch "$@"; exit 0 ;;
        *) usage ;;
    esac
    if [ -n "${PHOTOSYNC_TEST_POSTGRES_URL:-}" ]; then
        exec "$@"
    fi

    trap cleanup EXIT
    trap 'on_signal INT 130' INT
    trap 'on_signal TERM 143' TERM
    trap 'on_signal HUP 129' HUP
    find_bindir
    make_folder
    start_watchdog
    init_cluster
    make_certificates
    start_server
    create_role
    export PHOTOSYNC_TEST_POSTGRES_URL="postgresql://$ROLE:$password@127.0.0.1:$port/$DATABASE"
    export PHOTOSYNC_TEST_POSTGRES_CA="$folder/tls/ca.crt"
    # For tests that restart the server (PrivatePostgresServer): its data folder and binaries.
    export PHOTOSYNC_TEST_POSTGRES_DATA="$folder/data" PHOTOSYNC_TEST_POSTGRES_BIN="$bindir"
    echo "cluster.sh: PostgreSQL $("$bindir/postgres" -V | awk '{print $3}') on 127.0.0.1:$port (throwaway, in $folder)" >&2

    local status=0
    run_command "$@" || status=$?
    exit "$status"
}

main "$@"
