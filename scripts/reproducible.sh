#!/usr/bin/env bash
# The same commit gives the same jar, byte for byte, and the same SBOM: builds both twice from clean and compares
# them (project.build.outputTimestamp in pom.xml). Also checks that the SBOM names what is shipped: picocli, the
# jar's one dependency, and nothing of the tests'. .ci/run calls it.
#
#   bash scripts/reproducible.sh
set -euo pipefail
cd "$(dirname "$0")/.."

kept=$(mktemp -d)
trap 'rm -rf "$kept"' EXIT
mvn -B -q clean package -DskipTests
cp target/sidecar-wait.jar target/sidecar-wait.cdx.json "$kept/"
mvn -B -q clean package -DskipTests
for file in sidecar-wait.jar sidecar-wait.cdx.json; do
  if ! cmp -s "$kept/$file" "target/$file"; then
    echo "scripts/reproducible.sh: two builds of one commit made different target/$file" >&2
    exit 1
  fi
done
# What the SBOM names besides sidecar-wait itself: picocli alone (its package URLs; no test or build-time library).
shipped=$(grep -o '"purl" *: *"pkg:maven/[^"]*"' target/sidecar-wait.cdx.json | sed 's/.*pkg:maven\///; s/@.*//' |
  grep -v '^dev.sidecarwait/sidecar-wait$' | sort -u | tr '\n' ' ')
if [ "$shipped" != "info.picocli/picocli " ]; then
  echo "scripts/reproducible.sh: the SBOM lists '$shipped' beside sidecar-wait, not what the jar ships (picocli)" >&2
  exit 1
fi
echo "reproducible: two builds gave the same jar ($(sha256sum target/sidecar-wait.jar | cut -c1-16)...) and SBOM (sidecar-wait and picocli)"
