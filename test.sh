#!/usr/bin/env bash
# Runs weft's tests in two tiers and prints each tier's time.
#   ./test.sh          both tiers (what CI runs)
#   ./test.sh --quick  the quick tier only, for the edit loop: models, equivalence,
#                      contracts, paper scenarios, lint, a short Icarus co-simulation of
#                      every preset
# The full tier is every test named `full_`: every preset co-simulated 100 000 cycles
# under Icarus and Verilator, the FPGA flow (place and route) and the report.
# Installs Yosys, Verilator, Icarus Verilog, nextpnr-ice40, OpenSTA, clang/lld (for
# the kernels) and GTKWave with xvfb (to open the waveforms) from Debian's packages first when any of them is missing (needs root or
# sudo), and fetches the OSU standard-cell libraries into target/cell-libraries (the
# packages are downloaded and unpacked, not installed: they would pull in qflow).
set -euo pipefail
cd "$(dirname "$0")"

tier=full
case "${1:-}" in
  "") ;;
  --quick) tier=quick ;;
  *) echo "usage: ./test.sh [--quick]" >&2; exit 2 ;;
esac

missing=()
command -v yosys >/dev/null || missing+=(yosys)
command -v verilator >/dev/null || missing+=(verilator)
command -v iverilog >/dev/null || missing+=(iverilog)
command -v nextpnr-ice40 >/dev/null || missing+=(nextpnr-ice40)
command -v clang >/dev/null || missing+=(clang)
command -v ld.lld >/dev/null || missing+=(lld)
command -v sta >/dev/null || missing+=(opensta)
command -v gtkwave >/dev/null || missing+=(gtkwave)
command -v xvfb-run >/dev/null || missing+=(xvfb)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} from Debian's packages"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi
libs=target/cell-libraries
if [ ! -f $libs/usr/share/qflow/tech/osu018/osu018_stdcells.lib ] ||
   [ ! -f $libs/usr/share/qflow/tech/osu035/osu035_stdcells.lib ]; then
  echo "fetching the OSU cell libraries into $libs"
  mkdir -p $libs
  fetch() { (cd $libs && apt-get download -q qflow-tech-osu018 qflow-tech-osu035 >/dev/null); }
  if ! fetch; then
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    fetch
  fi
  for deb in $libs/qflow-tech-osu0*.deb; do dpkg -x "$deb" $libs; done
fi
echo "tools: $(yosys -V | head -1); $(verilator --version); $(iverilog -V 2>/dev/null | head -1); $(nextpnr-ice40 --version 2>&1 | head -1); $(clang --version | head -1)"

start=$SECONDS
cargo build --release --workspace --all-targets
build=$((SECONDS - start))

start=$SECONDS
cargo test --release --workspace -- --skip full_
quick=$((SECONDS - start))
echo "build: ${build} s; quick tier: ${quick} s"

if [ "$tier" = full ]; then
  start=$SECONDS
  cargo test --release --workspace -- full_
  full=$((SECONDS - start))
  echo "build: ${build} s; quick tier: ${quick} s; full tier: ${full} s"
fi
