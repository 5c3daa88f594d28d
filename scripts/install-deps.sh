#!/usr/bin/env bash
# Installs every Debian 12 package plainsql needs to build, test and run. Idempotent:
# packages already present are not touched, and apt is only called when something is missing.
set -euo pipefail

packages=(
  # build
  build-essential cmake pkg-config git
  # libraries the product links (postgresql-server-dev-15: PGXS and the server headers of the extension)
  libsqlite3-dev libpq-dev postgresql-server-dev-15 nlohmann-json3-dev libcli11-dev libfmt-dev libxxhash-dev liblinear-dev
  libpugixml-dev libpoppler-cpp-dev libcurl4-openssl-dev libtomlplusplus-dev libstemmer-dev liblemon-dev libhnswlib-dev
  # the trainers' gradient-boosted trees (XGBoost's C API; the library evaluates the trees itself)
  libxgboost-dev
  # plainsql serve's HTTP server, and the scripted OpenAI-compatible server of the LLM tests
  libcpp-httplib-dev
  # the sources of the shipped word list (data/words.tsv; a test checks it regenerates identically)
  wamerican-small wamerican wamerican-large wordnet
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev sqlite3 postgresql-15 postgresql-client-15 python3-numpy python3-pot
  # the browser test of the HTML report (headless Chromium, a font, libpng for reading its screenshots)
  chromium fonts-liberation libpng-dev
  # style checks; a faster linker for the test builds; clang and its sanitizer runtimes for the sanitizer build
  clang-format clang-tidy lld clang libclang-rt-14-dev
)

# Node.js and npm run the browser test of `plainsql serve`'s page (playwright-core from the npm registry). A machine that
# has a Node.js of its own keeps it; otherwise Debian's.
if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}; run as root (or with sudo) to install them" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
