#!/usr/bin/env bash
# A real PuppetDB 7 for the tests: PostgreSQL and PuppetDB from the Debian packages, run by hand
# (no systemd; the package's init script names a main class its jar lacks).
#
#   scripts/puppetdb.sh up       install the packages when missing (root), start PostgreSQL
#                                (pg_ctlcluster), make a database and role of our own, certificates
#                                of our own, and start PuppetDB: plain HTTP on 127.0.0.1:$port and
#                                TLS on 127.0.0.1:$ssl_port (client certificate required); waits
#                                until it says "running". Loads nothing. Already up: says so.
#   scripts/puppetdb.sh down     stops PuppetDB (and PostgreSQL when this script started it).
#   scripts/puppetdb.sh status   says whether PuppetDB is running (exit 0) or not (exit 1).
#   scripts/puppetdb.sh env      prints the variables the tests read (HIERAFORM_PUPPETDB_URL, ...).
#   scripts/puppetdb.sh load DIR submits every facts file of DIR (*.json, one node each: facter
#                                output, or {"name", "values"}) with replace_facts v5 and returns
#                                once PuppetDB has stored them all.
#
# Everything lives in $HIERAFORM_PUPPETDB_DIR (default ~/.cache/hieraform/puppetdb): conf.d,
# vardir, the log (puppetdb.log), the certificates (ssl/), and the Clojure compiled once from the
# jar's sources (classes-<jar checksum>/): loading it then takes a quarter of the CPU (8 s, not 32).
set -euo pipefail

state=${HIERAFORM_PUPPETDB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hieraform/puppetdb}
port=${HIERAFORM_PUPPETDB_PORT:-18080}
ssl_port=${HIERAFORM_PUPPETDB_SSL_PORT:-18081}
jar=/usr/share/puppetdb/puppetdb.jar
bootstrap=/etc/puppetdb/bootstrap.cfg
database=hieraform_puppetdb # database and role, ours alone: a system PuppetDB's are never touched
progress_every=${HIERAFORM_PROGRESS_SECONDS:-10}
url=http://127.0.0.1:$port

say() { echo "puppetdb.sh: $*" >&2; }
die() { say "$*"; exit 1; }

# as_postgres CMD...: runs CMD as the postgres user (we are root, or already that user).
as_postgres() {
	if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi
}

install_packages() {
	[ -f "$jar" ] && command -v pg_ctlcluster >/dev/null && command -v java >/dev/null && return
	[ "$(id -u)" = 0 ] || die "puppetdb and postgresql are not installed and we are not root: run 'apt-get install -y puppetdb postgresql' as root, then again"
	say "installing puppetdb and postgresql (apt, about 70 s and 53 MB; dbconfig-common's complaint that PostgreSQL is not running is harmless)"
	local start=$SECONDS
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q puppetdb postgresql >"$state/apt.log" 2>&1 ||
		{ apt-get update -q >>"$state/apt.log" 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q puppetdb postgresql >>"$state/apt.log" 2>&1; } ||
		{ tail -n 20 "$state/apt.log" >&2; die "apt-get install failed (log: $state/apt.log)"; }
	say "installed in $((SECONDS - start)) s"
}

# The newest PostgreSQL cluster: "VERSION NAME PORT STATUS".
cluster() {
	pg_lsclusters -h | sort -V | tail -n 1
}

start_postgres() {
	local version name pgport status
	read -r version name pgport status _ <<<"$(cluster)" || true
	if [ -z "${version:-}" ]; then
		[ "$(id -u)" = 0 ] || die "no PostgreSQL cluster and we are not root to make one"
		version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
		say "making PostgreSQL cluster $version main"
		pg_createcluster "$version" main >/dev/null
		read -r version name pgport status _ <<<"$(cluster)"
	fi
	if [[ $status != online* ]]; then
		say "starting PostgreSQL $version/$name (pg_ctlcluster)"
		pg_ctlcluster "$version" "$name" start
		echo "$version $name" >"$state/postgres-started"
	fi
	echo "$pgport" >"$state/postgres-port"
	# our role and database, made once; the password is ours, kept beside the configuration
	[ -s "$state/db-password" ] || (umask 077 && head -c 18 /dev/urandom | base64 | tr -d '/+=' >"$state/db-password")
	local password
	password=$(cat "$state/db-password")
	as_postgres psql -q -p "$pgport" -v ON_ERROR_STOP=1 -d postgres >/dev/null <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$database') THEN CREATE ROLE $database LOGIN; END IF;
END \$\$;
ALTER ROLE $database PASSWORD '$password';
SQL
	if ! as_postgres psql -p "$pgport" -tAc "SELECT 1 FROM pg_database WHERE datname = '$database'" -d postgres | grep -q 1; then
		as_postgres createdb -p "$pgport" -E UTF8 -O "$database" -T template0 "$database"
	fi
	as_postgres env PGOPTIONS='--client-min-messages=warning' psql -q -p "$pgport" -d "$database" -c 'CREATE EXTENSION IF NOT EXISTS pg_trgm' >/dev/null
}

# Certificates of our own: a CA, the server's (for 127.0.0.1 only, so https://localhost is a name
# mismatch the tests can meet) and a client's that PuppetDB's allowlist admits.
make_certificates() {
	local ssl=$state/ssl
	[ -s "$ssl/client.pem" ] && return
	say "making a CA and certificates in $ssl"
	mkdir -p "$ssl"
	(
		cd "$ssl"
		umask 077
		openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=Hieraform test CA" \
			-keyout ca.key -out ca.pem 2>/dev/null
		for who in server client; do
			local cn=$who.hieraform.test
			openssl req -newkey rsa:2048 -nodes -subj "/CN=$cn" -keyout "$who.key" -out "$who.csr" 2>/dev/null
			printf 'subjectAltName = %s\nextendedKeyUsage = %s\n' \
				"$([ $who = server ] && echo IP:127.0.0.1 || echo DNS:$cn)" \
				"$([ $who = server ] && echo serverAuth || echo clientAuth)" >"$who.ext"
			openssl x509 -req -in "$who.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -days 3650 \
				-extfile "$who.ext" -out "$who.pem" 2>/dev/null
			rm -f "$who.csr" "$who.ext"
		done
		chmod 644 ./*.pem
	)
}

write_config() {
	local conf=$state/conf.d
	mkdir -p "$conf" "$state/var"
	cat >"$conf/config.ini" <<INI
[global]
vardir = $state/var
logging-config = $state/logback.xml

[command-processing]
threads = 1

[puppetdb]
certificate-allowlist = $state/allowlist
INI
	echo client.hieraform.test >"$state/allowlist"
	(
		umask 077
		cat >"$conf/database.ini" <<INI
[database]
subname = //127.0.0.1:$(cat "$state/postgres-port")/$database
username = $database
password = $(cat "$state/db-password")
maximum-pool-size = 5
INI
	)
	cat >"$conf/jetty.ini" <<INI
[jetty]
host = 127.0.0.1
port = $port
ssl-host = 127.0.0.1
ssl-port = $ssl_port
ssl-cert = $state/ssl/server.pem
ssl-key = $state/ssl/server.key
ssl-ca-cert = $state/ssl/ca.pem
client-auth = need
INI
	cp /etc/puppetdb/conf.d/auth.conf "$conf/auth.conf" 2>/dev/null || true
	cat >"$state/logback.xml" <<XML
<configuration scan="false">
  <appender name="F" class="ch.qos.logback.core.FileAppender">
    <file>$state/puppetdb.log</file>
    <encoder><pattern>%d %-5p [%c{2}] %m%n</pattern></encoder>
  </appender>
  <root level="info"><appender-ref ref="F"/></root>
</configuration>
XML
}

running() {
	curl -fsS --max-time 2 "$url/status/v1/services/puppetdb-status" 2>/dev/null | grep -q '"state":"running"'
}

pid_alive() {
	[ -s "$state/puppetdb.pid" ] && kill -0 "$(cat "$state/puppetdb.pid")" 2>/dev/null
}

# The namespaces PuppetDB and trapperkeeper load: compiled once into a class directory that goes
# first on the class path (Clojure loads a class file newer than its source instead of compiling).
compile_once() {
	local sum classes
	sum=$(sha256sum "$jar" | cut -c1-16)
	classes=$state/classes-$sum
	[ -f "$classes/.done" ] && { echo "$classes"; return; }
	rm -rf "$state"/classes-* && mkdir -p "$classes"
	say "compiling PuppetDB's Clojure once into $classes (about 2 minutes on two cores; later starts skip it)"
	local namespaces
	namespaces=$(sed -n 's|^\([a-z][^/# ]*\)/.*|\1|p' "$bootstrap" | sort -u | tr '\n' ' ')
	local start=$SECONDS
	java -Xmx512m -Dclojure.compile.path="$classes" -cp "$classes:$jar" clojure.main \
		-e "(doseq [n '(puppetlabs.puppetdb.core $namespaces)] (compile n))" >"$state/compile.log" 2>&1 &
	local pid=$!
	local next=$((start + progress_every))
	while kill -0 $pid 2>/dev/null; do
		sleep 1
		((SECONDS >= next)) || continue
		next=$((next + progress_every))
		say "  ... compiling, $((SECONDS - start)) s, $(find "$classes" -name '*.class' | wc -l) classes"
	done
	if wait $pid; then
		touch "$classes/.done"
		say "compiled in $((SECONDS - start)) s"
		echo "$classes"
	else
		tail -n 20 "$state/compile.log" >&2
		say "compiling failed (log: $state/compile.log); running from the jar's sources"
		rm -rf "$classes"
		echo ""
	fi
}

# up_estimate says what a start has to do and how long it takes on two cores, in all: the steps
# still to do (installing, compiling once) and the start itself, as long as the last one took.
up_estimate() {
	local steps="" total=0 start_s=60
	[ -s "$state/start-seconds" ] && start_s=$(cat "$state/start-seconds")
	if ! { [ -f "$jar" ] && command -v pg_ctlcluster >/dev/null && command -v java >/dev/null; }; then
		steps="installing the packages, about 70 s; " total=$((total + 70))
	fi
	if ! compgen -G "$state/classes-*/.done" >/dev/null; then
		steps+="compiling PuppetDB once, about 2 minutes; " total=$((total + 120))
	fi
	total=$((total + start_s))
	local in_all="$total s"
	((total < 90)) || in_all="$(((total + 30) / 60)) min"
	echo "about $in_all in all on two cores (${steps}starting it, about $start_s s)"
}

up() {
	mkdir -p "$state"
	if running; then
		say "PuppetDB is already running at $url (TLS: https://127.0.0.1:$ssl_port)"
		return
	fi
	local up_start=$SECONDS
	say "bringing PuppetDB up: $(up_estimate)"
	install_packages
	start_postgres
	make_certificates
	write_config
	if pid_alive; then
		say "PuppetDB (pid $(cat "$state/puppetdb.pid")) is starting already; waiting for it"
	else
		local classes cp=$jar
		classes=$(compile_once)
		[ -n "$classes" ] && cp=$classes:$jar
		say "starting PuppetDB $(dpkg-query -W -f '${Version}' puppetdb 2>/dev/null) (log: $state/puppetdb.log)"
		: >"$state/puppetdb.log"
		# setsid: PuppetDB outlives this script and the shell that ran it
		setsid java -Xmx512m -Djava.security.egd=/dev/urandom -cp "$cp" clojure.main \
			-m puppetlabs.puppetdb.core services --config "$state/conf.d" --bootstrap-config "$bootstrap" \
			>"$state/stdout.log" 2>&1 </dev/null &
		echo $! >"$state/puppetdb.pid"
	fi
	local start=$SECONDS limit=${HIERAFORM_PUPPETDB_WAIT:-300}
	local next=$((start + progress_every))
	while ! running; do
		pid_alive || { tail -n 20 "$state/stdout.log" "$state/puppetdb.log" >&2; die "PuppetDB exited while starting (logs: $state/stdout.log, $state/puppetdb.log)"; }
		((SECONDS - start < limit)) || { tail -n 20 "$state/puppetdb.log" >&2; die "PuppetDB is not running after $limit s (log: $state/puppetdb.log)"; }
		sleep 1
		((SECONDS >= next)) || continue
		next=$((next + progress_every))
		say "  ... waiting for PuppetDB to say running, $((SECONDS - start)) s"
	done
	echo $((SECONDS - start)) >"$state/start-seconds"
	say "PuppetDB is running at $url and https://127.0.0.1:$ssl_port after $((SECONDS - start)) s ($((SECONDS - up_start)) s in all)"
}

down() {
	if pid_alive; then
		local pid
		pid=$(cat "$state/puppetdb.pid")
		say "stopping PuppetDB (pid $pid)"
		kill "$pid"
		for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
		kill -0 "$pid" 2>/dev/null && { say "PuppetDB did not stop in 30 s: killing it"; kill -9 "$pid"; }
	else
		say "PuppetDB is not running (started by this script)"
	fi
	rm -f "$state/puppetdb.pid"
	if [ -s "$state/postgres-started" ]; then
		local version name
		read -r version name <"$state/postgres-started"
		say "stopping PostgreSQL $version/$name (this script started it)"
		pg_ctlcluster "$version" "$name" stop || true
		rm -f "$state/postgres-started"
	fi
}

env_vars() {
	cat <<ENV
export HIERAFORM_PUPPETDB_URL=$url
export HIERAFORM_PUPPETDB_TLS_URL=https://127.0.0.1:$ssl_port
export HIERAFORM_PUPPETDB_CACERT=$state/ssl/ca.pem
export HIERAFORM_PUPPETDB_CERT=$state/ssl/client.pem
export HIERAFORM_PUPPETDB_KEY=$state/ssl/client.key
ENV
}

# load DIR: replace_facts v5 for every facts file of DIR (*.json); returns once PuppetDB has
# stored them all.
load() {
	local dir=${1:?usage: puppetdb.sh load DIR}
	running || die "PuppetDB is not running at $url: scripts/puppetdb.sh up"
	command -v python3 >/dev/null || die "load needs python3"
	python3 - "$url" "$dir" "$progress_every" <<'PY'
import datetime, glob, json, os, sys, time, urllib.parse, urllib.request

url, folder, every = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = sorted(glob.glob(os.path.join(folder, "*.json")))
if not files:
    sys.exit(f"puppetdb.sh: no *.json facts files in {folder}")
def post(path, body):
    request = urllib.request.Request(url + path, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as e:
        sys.exit(f"puppetdb.sh: {path}: HTTP {e.code}: {e.read().decode(errors='replace')}")

# Every file is submitted at once and PuppetDB's queue works through them; then we wait until
# PuppetDB holds them all (waiting on each command would take ~0.3 s a node).
start = last = time.monotonic()
since = datetime.datetime.now(datetime.timezone.utc)
names = set()
for path in files:
    with open(path) as f:
        facts = json.load(f)
    if isinstance(facts, dict) and set(facts) >= {"name", "values"}:
        name, facts = facts["name"], facts["values"]
    else:  # the certname as Puppet names a node: trusted.certname, clientcert, fqdn, the file name
        name = (facts.get("trusted") or {}).get("certname") or facts.get("clientcert") or facts.get("fqdn") \
            or os.path.splitext(os.path.basename(path))[0]
    names.add(name)
    body = json.dumps({"certname": name, "environment": "production", "values": facts,
                       "producer_timestamp": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                       "producer": "hieraform-tests"}).encode()
    query = urllib.parse.urlencode({"command": "replace_facts", "version": 5, "certname": name})
    post(f"/pdb/cmd/v1?{query}", body)
print(f"puppetdb.sh: {len(files)} nodes submitted in {time.monotonic() - start:.1f} s; waiting for PuppetDB to store them", file=sys.stderr)
pql = 'inventory[certname] { timestamp >= "%s" }' % since.strftime("%Y-%m-%dT%H:%M:%S.000Z")
deadline = time.monotonic() + 60 + len(files)
while True:
    stored = {n["certname"] for n in post("/pdb/query/v4", json.dumps({"query": pql}).encode())} & names
    if len(stored) == len(names):
        break
    if time.monotonic() > deadline:
        sys.exit(f"puppetdb.sh: only {len(stored)} of {len(names)} nodes stored after {time.monotonic() - start:.0f} s")
    if time.monotonic() - last >= every:
        last = time.monotonic()
        print(f"puppetdb.sh:   ... {len(stored)} of {len(names)} nodes stored, {last - start:.0f} s", file=sys.stderr)
    time.sleep(0.2)
print(f"puppetdb.sh: loaded {len(files)} nodes from {folder} in {time.monotonic() - start:.1f} s", file=sys.stderr)
PY
}

case "${1:-}" in
up) up ;;
status)
	running && { say "running at $url (TLS: https://127.0.0.1:$ssl_port)"; exit 0; }
	die "not running at $url"
	;;
down) down ;;
env) env_vars ;;
load) load "${2:-}" ;;
*) die "usage: scripts/puppetdb.sh up|down|status|env|load DIR" ;;
esac
