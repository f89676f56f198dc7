#!/usr/bin/env bash
# Writes a SimGrid platform (XML, DTD version 4.1) with one cluster of P hosts,
# and the matching hostfile (one rank per host), for scripts/smpi/run.sh.
#
#   scripts/smpi/platform.sh -p 1000 -o build/smpi/platforms/p1000
#     -> p1000.xml, p1000.hosts (and p1000.profile when hosts are slowed)
#
# Defaults (a generic commodity cluster, in units that make cost models easy:
# 1 Gf per host, so one flop is one nanosecond on an unperturbed host):
#   --speed 1Gf      flop rate of every host (SimGrid units: f, kf, Mf, Gf)
#   --bw 10Gbps      bandwidth of each host's private link to the switch
#   --lat 1us        latency of that link (a message crosses two such links
#                    and the backbone, so about 3 µs plus SMPI's latency factor)
#   --bb-bw 100Gbps  backbone bandwidth (shared by all hosts)
#   --bb-lat 1us     backbone latency
#   --cores 1        cores per host (ranks on the same host share its speed)
#
# Perturbation scenario (as the LB4MPI thesis perturbs its hosts): a fraction of the hosts is
# slowed over time through SimGrid's speed profiles.
#   --slow-fraction F   fraction of hosts slowed (0..1; hosts spread evenly over
#                       the ranks: every round(1/F)-th host, starting at host 1,
#                       so rank 0 keeps its speed)
#   --slow-at T         simulated time in seconds when they slow down (default 1)
#   --slow-factor S     their speed from then on, as a fraction (default 0.5)
#   --slow-until U      simulated time when they recover (default: never)
#   --profile FILE      use this speed profile instead of the three above
#
# Speed-profile format (the format of SimGrid's speed_file, one event a line):
#   <time in simulated seconds> <speed factor>   e.g.  0 1.0
#                                                      1 0.5
# The factor multiplies the host's nominal speed from that time on (0.5 = half
# speed; a computation in flight stretches accordingly). The profile is written
# next to the XML and attached to each slowed host of the <cluster> with
# <trace id=… file=… periodicity="-1"/> (played once) and one
# <trace_connect kind="SPEED" element="node-h"/> per host. Two traps of
# SimGrid 3.32 avoided here: a <host speed_file=…> file can back one host only
# ("Refusing to define trace … twice"), and an absolute profile path is not
# found (SimGrid prefixes its search path: "./" and the platform's folder), so
# the file is named relative to the platform's folder.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit "${1:-0}"; }

P=""; out=""; speed=1Gf; bw=10Gbps; lat=1us; bb_bw=100Gbps; bb_lat=1us; cores=1
slow_fraction=0; slow_at=1; slow_factor=0.5; slow_until=""; profile=""
while (($#)); do
  case "$1" in
    -p|--hosts) P=$2; shift 2 ;;
    -o|--out) out=$2; shift 2 ;;
    --speed) speed=$2; shift 2 ;;
    --bw) bw=$2; shift 2 ;;
    --lat) lat=$2; shift 2 ;;
    --bb-bw) bb_bw=$2; shift 2 ;;
    --bb-lat) bb_lat=$2; shift 2 ;;
    --cores) cores=$2; shift 2 ;;
    --slow-fraction) slow_fraction=$2; shift 2 ;;
    --slow-at) slow_at=$2; shift 2 ;;
    --slow-factor) slow_factor=$2; shift 2 ;;
    --slow-until) slow_until=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "platform.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
[[ $P =~ ^[1-9][0-9]*$ ]] || { echo "platform.sh: -p $P: expected a host count >= 1" >&2; exit 2; }
[[ -n $out ]] || out="platform-p$P"
[[ $cores =~ ^[1-9][0-9]*$ ]] || { echo "platform.sh: --cores $cores: expected an integer >= 1" >&2; exit 2; }
awk -v f="$slow_fraction" 'BEGIN { exit !(f + 0 >= 0 && f + 0 <= 1) }' ||
  { echo "platform.sh: --slow-fraction $slow_fraction: expected a number in [0,1]" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
xml="$out.xml"; hosts="$out.hosts"

# Hosts to slow: every `stride`-th host from host 1 (none when the fraction is 0).
slowed=()
if [[ -n $profile ]] || awk -v f="$slow_fraction" 'BEGIN { exit !(f + 0 > 0) }'; then
  [[ -n $profile ]] && awk -v f="$slow_fraction" 'BEGIN { exit !(f + 0 == 0) }' && slow_fraction=1
  count=$(awk -v f="$slow_fraction" -v p="$P" 'BEGIN { c = int(f * p + 0.5); if (c < 1) c = 1; print c }')
  for ((k = 0; k < count; ++k)); do
    slowed+=($(( (1 + k * P / count) % P )))
  done
  if [[ -z $profile ]]; then
    profile="$out.profile"
    {
      echo "0 1.0"
      echo "$slow_at $slow_factor"
      [[ -n $slow_until ]] && echo "$slow_until 1.0"
    } > "$profile"
  fi
  [[ -r $profile ]] || { echo "platform.sh: --profile $profile: not readable" >&2; exit 2; }
  if [[ $(readlink -f "$(dirname "$profile")") != $(readlink -f "$(dirname "$out")") ]]; then
    cp "$profile" "$out.profile"
    profile="$out.profile"
  fi
  profile=$(basename "$profile")  # found through SimGrid's search path (the platform's folder)
fi

{
  echo "<?xml version='1.0'?>"
  echo "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">"
  echo "<!-- scripts/smpi/platform.sh -p $P --speed $speed --bw $bw --lat $lat --bb-bw $bb_bw --bb-lat $bb_lat --cores $cores --slow-fraction $slow_fraction${slowed:+ (${#slowed[@]} hosts slowed by $profile)} -->"
  echo "<platform version=\"4.1\">"
  echo "  <zone id=\"world\" routing=\"Full\">"
  echo "    <cluster id=\"cluster\" prefix=\"node-\" radical=\"0-$((P - 1))\" suffix=\"\" speed=\"$speed\" core=\"$cores\""
  echo "             bw=\"$bw\" lat=\"$lat\" bb_bw=\"$bb_bw\" bb_lat=\"$bb_lat\"/>"
  if ((${#slowed[@]} > 0)); then
    echo "    <trace id=\"slowdown\" file=\"$profile\" periodicity=\"-1\"/>"
    for h in "${slowed[@]}"; do
      echo "    <trace_connect kind=\"SPEED\" trace=\"slowdown\" element=\"node-$h\"/>"
    done
  fi
  echo "  </zone>"
  echo "</platform>"
} > "$xml"

for ((h = 0; h < P; ++h)); do echo "node-$h"; done > "$hosts"
echo "platform.sh: $xml ($P hosts${slowed:+, ${#slowed[@]} slowed}), $hosts"
