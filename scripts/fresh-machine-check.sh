#!/usr/bin/env bash
#===- scripts/fresh-machine-check.sh - The README on a fresh Debian 12 -----===#
#
# The newcomer's path (issue #23). Makes a minimal Debian 12 root
# (debootstrap --variant=minbase bookworm), installs git and ca-certificates
# in it as a new user would, clones this repository's HEAD into it (the
# committed state only, as CI's clean clone) and runs the README's two
# set-up commands there through chroot, ./scripts/run-example.sh then
# ./scripts/test.sh, each with its wall time and exit code. Both commands
# share one ccache folder inside the root; the total time is printed last.
#
#   scripts/fresh-machine-check.sh [--keep] [--root DIR]
#
#   --keep            keep the root (with its logs, under
#                     /var/log/fresh-machine-check) for inspection
#   --root DIR        make the root in DIR, which must be missing or empty
#                     (default: a new mktemp directory under /var/tmp)
#   VF_FRESH_MIRROR   the Debian mirror (default: the host's bookworm mirror
#                     and security mirror from /etc/apt/sources.list.d, else
#                     deb.debian.org; an override has no security suite)
#   VF_FRESH_NET_TIMEOUT  seconds the mirror has to answer (default 15)
#   VF_FRESH_BUDGET   seconds for everything (default 2700); a step still
#                     running then fails, so CI's total stays bounded
#
# Where the machine cannot do it (not root, no mounts allowed, too little
# disk, no network to the mirror, debootstrap missing and not installable)
# it prints "fresh-machine-check: skipped: WHY" and exits 0. A failing step
# exits 1 with the step's last output lines; an interrupt exits 130/143.
# Mounts (/proc, /sys, /dev, /dev/pts, /dev/shm, the source) are undone on
# every exit path, and the root is removed unless --keep.
#
#===------------------------------------------------------------------------===#
set -u -o pipefail

me=fresh-machine-check
say() { printf '%s: %s\n' "$me" "$*"; }
skip() { say "skipped: $*"; exit 0; }
die() { say "error: $*" >&2; exit 1; }
usage() { sed -n '12,23s/^# \{0,1\}//p' "$0"; }
fmt() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

keep=no
root=
while [ $# -gt 0 ]; do
  case $1 in
    --keep) keep=yes ;;
    --root) [ $# -ge 2 ] || { usage >&2; exit 2; }; root=$2; shift ;;
    --root=*) root=${1#--root=} ;;
    -h|--help) usage; exit 0 ;;
    *) echo "$me: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

repo=$(cd "$(dirname "$0")/.." && pwd)
net_timeout=${VF_FRESH_NET_TIMEOUT:-15}
suite=bookworm
t_start=$(date +%s)
deadline=$((t_start + ${VF_FRESH_BUDGET:-2700}))

#===- What the machine cannot do: skipped, exit 0 --------------------------===#

[ "$(uname -s)" = Linux ] || skip "not Linux"
[ "$(id -u)" -eq 0 ] || skip "not root (debootstrap, mount and chroot need root)"
command -v git > /dev/null || skip "no git on this machine"
src_git=$(git -C "$repo" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) ||
  skip "$repo is not a git checkout"
sha=$(git -C "$repo" rev-parse HEAD)

probe=$(mktemp -d /var/tmp/vf-fresh-probe.XXXXXX) || skip "cannot write to /var/tmp"
if mount -t tmpfs vf-fresh-probe "$probe" 2>/dev/null; then
  umount "$probe"; rmdir "$probe"
else
  rmdir "$probe"; skip "cannot mount (no CAP_SYS_ADMIN, e.g. an unprivileged container)"
fi

# The host's Debian mirror: the first source (deb822 .sources or one-line
# .list) that serves the suite SUITE.
host_source() {
  local want=$1 f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -r "$f" ] || continue
    awk -v want="$want" 'BEGIN { RS = ""; FS = "\n" }
      { uris = ""; suites = ""; on = 1
        for (i = 1; i <= NF; i++) {
          l = $i; if (l ~ /^[ \t]*#/) continue
          k = tolower(l); v = l; sub(/^[^:]*:[ \t]*/, "", v)
          if (k ~ /^uris:/) uris = v
          if (k ~ /^suites:/) suites = " " v " "
          if (k ~ /^enabled:[ \t]*no/) on = 0
        }
        if (on && uris != "" && index(suites, " " want " ")) { split(uris, u, /[ \t]+/); print u[1] }
      }' "$f"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -r "$f" ] || continue
    sed -E 's/\[[^]]*\]//' "$f" | awk -v want="$want" '$1 == "deb" && $3 == want { print $2 }'
  done
}
if [ -n "${VF_FRESH_MIRROR:-}" ]; then
  mirror=${VF_FRESH_MIRROR%/}
  security=
else
  mirror=$(host_source $suite | head -n 1)
  mirror=${mirror%/}
  security=$(host_source $suite-security | head -n 1)
  security=${security%/}
  [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
fi

# The mirror must answer within the timeout.
reachable() {
  local url=$1/dists/$suite/Release
  if command -v curl > /dev/null; then
    curl -fsS -o /dev/null --connect-timeout "$net_timeout" --max-time $((net_timeout * 4)) "$url"
  elif command -v wget > /dev/null; then
    timeout $((net_timeout * 4)) wget -q -O /dev/null -T "$net_timeout" -t 1 "$url"
  elif [[ $url =~ ^http://([^/:]+)(:([0-9]+))?(/.*)$ ]]; then
    timeout "$net_timeout" bash -c 'exec 3<>/dev/tcp/$0/$1 && printf "HEAD $2 HTTP/1.0\r\nHost: $0\r\n\r\n" >&3 &&
      head -n 1 <&3 | grep -q " 200 "' "${BASH_REMATCH[1]}" "${BASH_REMATCH[3]:-80}" "${BASH_REMATCH[4]}"
  else
    return 0  # nothing to probe with: debootstrap will tell
  fi
}
reachable "$mirror" 2>/dev/null || skip "no network to the Debian mirror $mirror (nothing within ${net_timeout}s)"

if ! command -v debootstrap > /dev/null; then
  command -v apt-get > /dev/null || skip "no debootstrap, and no apt-get to install it"
  say "installing debootstrap on this machine (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  if ! timeout 600 apt-get install -y -qq --no-install-recommends debootstrap > /dev/null 2>&1; then
    timeout 600 apt-get update -qq > /dev/null 2>&1
    why=$(timeout 600 apt-get install -y -qq --no-install-recommends debootstrap 2>&1 > /dev/null | tail -n 1)
    command -v debootstrap > /dev/null || skip "debootstrap cannot be installed (apt-get: ${why:-failed})"
  fi
fi

#===- The root, its mounts, and their cleanup on every exit path -----------===#

made_root=no
if [ -z "$root" ]; then
  root=$(mktemp -d /var/tmp/vf-fresh.XXXXXX) || skip "cannot make a directory under /var/tmp"
  made_root=yes
elif [ -e "$root" ]; then
  [ -d "$root" ] || die "--root $root is not a directory"
  [ -z "$(ls -A "$root")" ] || die "--root $root is not empty"
else
  mkdir -p "$root" || die "cannot make $root"
  made_root=yes
fi
root=$(cd "$root" && pwd -P)
[ "$root" != / ] || die "--root / is not a root to make"
[[ $root != *[[:space:]]* ]] || die "--root: no spaces in the path, please"
free_kib=$(df -Pk "$root" | awk 'NR == 2 { print $4 }')
if [ "${free_kib:-0}" -lt $((5 * 1024 * 1024)) ]; then
  [ $made_root = yes ] && rmdir "$root"
  skip "only $((${free_kib:-0} / 1024 / 1024)) GiB free under $root (the root needs about 3, and room to spare)"
fi
logs=$root/var/log/$me
mkdir -p "$logs"

mounts=()      # mount points, in the order they were mounted
step_pid=      # the running step (its own session and process group)
cleaned=no

# Processes whose root is the new root (or inside it).
root_pids() {
  local p r
  for p in /proc/[0-9]*; do
    r=$(readlink "$p/root" 2>/dev/null) || continue
    case $r in "$root"|"$root"/*) echo "${p#/proc/}" ;; esac
  done
}

# Mount points at or under the root, deepest first.
mounts_under() {
  awk -v r="$root" '{ m = $5; gsub(/\\040/, " ", m); if (m == r || index(m, r "/") == 1) print m }' \
    /proc/self/mountinfo | awk '{ print length($0) "\t" $0 }' | sort -rn | cut -f2-
}

unmount() {
  umount "$1" 2>/dev/null || umount -l "$1" 2>/dev/null || say "warning: cannot unmount $1" >&2
}

cleanup() {
  local rc=$? i p left
  [ $cleaned = yes ] && return
  cleaned=yes
  trap '' INT TERM
  if [ -n "$step_pid" ]; then
    kill -TERM -- "-$step_pid" 2>/dev/null
  fi
  for p in $(root_pids); do kill -TERM "$p" 2>/dev/null; done
  for i in $(seq 20); do
    [ -z "$(root_pids)" ] && { [ -z "$step_pid" ] || ! kill -0 "$step_pid" 2>/dev/null; } && break
    sleep 0.5
  done
  [ -n "$step_pid" ] && kill -KILL -- "-$step_pid" 2>/dev/null
  for p in $(root_pids); do kill -KILL "$p" 2>/dev/null; done
  # Reverse order; then anything else still mounted under the root.
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    mountpoint -q "${mounts[i]}" && unmount "${mounts[i]}"
  done
  for p in $(mounts_under); do unmount "$p"; done
  left=$(mounts_under)
  if [ -n "$left" ]; then
    say "error: still mounted, the root is left as it is: $left" >&2
    [ $rc -eq 0 ] && rc=1
  elif [ $keep = yes ]; then
    say "kept the root: $root (logs in $logs; chroot $root /bin/bash)"
  else
    rm -rf --one-file-system "$root" 2>/dev/null
    [ $made_root = no ] && mkdir -p "$root"
  fi
  exit $rc
}
trap cleanup EXIT
trap 'say "interrupted (SIGINT)" >&2; exit 130' INT
trap 'say "interrupted (SIGTERM)" >&2; exit 143' TERM

mount_at() {  # mount_at TARGET MOUNT-ARGS...: mounts and remembers TARGET
  local target=$1; shift
  mkdir -p "$target" && mount "$@" "$target" && mounts+=("$target")
}

# step NAME LIMIT_S COMMAND...: runs COMMAND in its own session (so cleanup
# can stop all of it) with its output in $logs/NAME.log, saying every five
# minutes what it is at. Sets step_rc and step_s.
step() {
  local name=$1 limit=$2 log=$logs/$1.log t0 next
  shift 2
  t0=$(date +%s); next=$((t0 + 300))
  [ $((deadline - t0)) -lt "$limit" ] && limit=$((deadline - t0))
  [ "$limit" -ge 1 ] || limit=1
  step_limit=$limit
  setsid timeout --kill-after=30 "$limit" "$@" > "$log" 2>&1 < /dev/null &
  step_pid=$!
  while kill -0 "$step_pid" 2>/dev/null; do
    sleep 2 & wait $!
    if [ "$(date +%s)" -ge $next ]; then
      say "  ... $name, $(fmt $(($(date +%s) - t0))): $(tail -n 1 "$log" | tr -d '\r' | cut -c1-100)"
      next=$((next + 300))
    fi
  done
  wait "$step_pid"; step_rc=$?
  step_pid=
  step_s=$(($(date +%s) - t0))
}

# must NAME LIMIT_S COMMAND...: a step that has to pass.
must() {
  local name=$1
  step "$@"
  if [ $step_rc -ne 0 ]; then
    case $name in
      run-example|test) name="./scripts/$name.sh (in the root's /root/vegasflow)" ;;
      apt-git) name="apt-get install git ca-certificates (in the root)" ;;
      clone) name="git clone (in the root)" ;;
    esac
    say "FAILED: $name (exit $step_rc$([ $step_rc -eq 124 ] || [ $step_rc -eq 137 ] && echo ", timed out after ${step_limit}s"), $(fmt $step_s)); its last lines:" >&2
    tail -n 40 "$logs/$1.log" | sed 's/^/  | /' >&2
    # ctest prints a failing test's output after its result line, far above.
    awk '/The following tests FAILED:/ { on = 1; next } on && NF == 0 { on = 0 } on && $2 == "-" { print $3 }' \
      "$logs/$1.log" | head -n 3 | while read -r t; do
      say "the output of $t:" >&2
      awk -v t="$t" '$0 ~ "Test +#[0-9]+: " t " " { on = 1 } on && /^ +Start +[0-9]+:/ { exit } on' \
        "$logs/$1.log" | head -n 40 | sed 's/^/  | /' >&2
    done
    [ $keep = yes ] || say "(--keep keeps the root and the whole log)" >&2
    exit 1
  fi
}

# A root shell in the new root (in_root SCRIPT), with a new root shell's
# environment: nothing of this machine's but its proxy, if any.
in_root=(env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash TERM=dumb LANG=C.UTF-8
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
  CCACHE_DIR=/root/.cache/ccache
  ${http_proxy:+http_proxy=$http_proxy} ${https_proxy:+https_proxy=$https_proxy}
  ${no_proxy:+no_proxy=$no_proxy}
  chroot "$root" /bin/bash -c)

#===- The newcomer's path --------------------------------------------------===#

say "root $root, mirror $mirror, commit $(git -C "$repo" log -1 --format='%h %s' | cut -c1-60)"

must debootstrap 900 debootstrap --variant=minbase $suite "$root" "$mirror"
t_debootstrap=$step_s
say "debootstrap --variant=minbase $suite: $(fmt $step_s)"

# Binds are made private: nothing mounted under them reaches the host.
mount_at "$root/proc" -t proc proc || die "cannot mount /proc in the root"
mount_at "$root/sys" -t sysfs sysfs 2>/dev/null || mount_at "$root/sys" --bind /sys ||
  die "cannot mount /sys in the root"
mount_at "$root/dev" --bind /dev && mount --make-private "$root/dev" || die "cannot bind /dev"
mount_at "$root/dev/pts" --bind /dev/pts && mount --make-private "$root/dev/pts" ||
  die "cannot bind /dev/pts"
mount_at "$root/dev/shm" -t tmpfs -o mode=1777,nosuid,nodev shm || die "cannot mount /dev/shm"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"

# The root's apt sources: the mirror, and the host's security mirror.
{
  echo "deb $mirror $suite main"
  echo "deb $mirror $suite-updates main"
  [ -n "$security" ] && echo "deb $security $suite-security main"
} > "$root/etc/apt/sources.list"
# A mirror this machine reads as a dated snapshot needs the host's own
# leniency on Release dates; nothing else of the host's apt set-up is copied.
for k in Acquire::Check-Valid-Until Acquire::Check-Date; do
  v=$(apt-config dump 2>/dev/null | awk -v k="$k" '$1 == k { gsub(/[";]/, "", $2); print $2 }')
  [ "$v" = false ] && echo "$k \"false\";" >> "$root/etc/apt/apt.conf.d/99$me-host"
done

must apt-git 600 "${in_root[@]}" 'export DEBIAN_FRONTEND=noninteractive; apt-get update -q &&
  apt-get install -y -q --no-install-recommends git ca-certificates'
t_apt=$step_s
say "apt-get install git ca-certificates: $(fmt $step_s)"

mount_at "$root/mnt/vegasflow.git" --bind "$src_git"
mount -o remount,bind,ro "$root/mnt/vegasflow.git"
must clone 300 "${in_root[@]}" "git -c safe.directory='*' clone -q file:///mnt/vegasflow.git /root/vegasflow &&
  cd /root/vegasflow && { [ \"\$(git rev-parse HEAD)\" = $sha ] || git checkout -q --detach $sha; } &&
  git log -1 --format='cloned %h into /root/vegasflow'"
unmount "$root/mnt/vegasflow.git"
say "$(tail -n 1 "$logs/clone.log") ($(fmt $step_s))"

# The README's two commands, in the clone, one ccache folder for both.
ccache_line() {
  local hm
  hm=$("${in_root[@]}" 'ccache --print-stats' 2>/dev/null | awk '
    $1 ~ /^(direct|preprocessed)_cache_hit$/ { h += $2 } $1 == "cache_miss" { m += $2 }
    END { printf "%d hits, %d misses", h, m }')
  say "  ccache (/root/.cache/ccache in the root): ${hm:-no statistics}$(grep -q 'ninja: no work to do' "$logs/$1.log" &&
    echo '; ninja: no work to do')"
}
must run-example 1800 "${in_root[@]}" 'cd /root/vegasflow && ./scripts/run-example.sh'
t_example=$step_s
say "./scripts/run-example.sh: exit 0, $(fmt $step_s); $(grep -iE 'result|integral' "$logs/run-example.log" | tail -n 1 | cut -c1-90)"
ccache_line run-example
"${in_root[@]}" 'ccache -z' > /dev/null

must test 1800 "${in_root[@]}" 'cd /root/vegasflow && ./scripts/test.sh'
t_test=$step_s
say "./scripts/test.sh: exit 0, $(fmt $step_s); $(grep -E 'tests passed' "$logs/test.log" | tail -n 1)"
ccache_line test
awk '/The following tests did not run:/ { on = 1; next } on && NF == 0 { on = 0 } on' "$logs/test.log" |
  sed "s/^[[:space:]]*/$me:   did not run: /"
lastlog=$root/root/vegasflow/build/release/Testing/Temporary/LastTest.log
[ -r "$lastlog" ] && grep -E '^ *(Passed|Unsupported|Skipped|Expectedly Failed) *: *[0-9]+' "$lastlog" |
  sed -E "s/^ +/$me:   lit: /; s/ +:/:/"

total=$(($(date +%s) - t_start))
say "times: debootstrap $(fmt $t_debootstrap), apt-get git $(fmt $t_apt)," \
  "run-example.sh $(fmt $t_example), test.sh $(fmt $t_test); total $(fmt $total)"
say "passed"
