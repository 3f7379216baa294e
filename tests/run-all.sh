#!/bin/bash
# The test command behind `make test`: unit tests, then every integration
# test on its own throwaway cluster, then one summary line.
#   TESTS="core cli" make test   runs only tests/integration/test_{core,cli}.sh
cd "$(dirname "$0")/.." || exit 1
passed=0 failed=0 failed_names=()

count() {	# count NAME LOG: add the test's "N passed, N failed" line
	local line p f
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$2" | tail -1)
	if [ -z "$line" ]; then
		echo "== $1: no summary line (crashed?)"
		failed=$((failed + 1)) failed_names+=("$1")
		return
	fi
	p=${line%% passed*} f=${line#*, } f=${f%% failed*}
	passed=$((passed + p)) failed=$((failed + f))
	[ "$f" = 0 ] || failed_names+=("$1")
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "== unit tests"
build/unit_tests >"$log" 2>&1
rc=$?
cat "$log"
p=$(grep -c '^\[       OK \]' "$log") f=$(grep -c '^\[  FAILED  \] [a-z_]' "$log")
[ $rc != 0 ] && [ "$f" = 0 ] && f=1
passed=$((passed + p)) failed=$((failed + f))
[ "$f" = 0 ] || failed_names+=(unit)

echo "== layers"	# the include graph of loader/: no root, no cluster
bash tests/test_layers.sh 2>&1 | tee "$log"
count layers "$log"

if [ "$(id -u)" != 0 ]; then
	echo "== integration tests need root (BPF, uprobes, a Ceph cluster): run 'sudo make test'"
	failed=$((failed + 1)) failed_names+=(integration-needs-root)
else
	# test_releases needs the reef and tentacle chroots: build any missing
	# one here (minutes, once; cached), not inside that test's 600 s limit
	if [ -z "${TESTS:-}" ] || [[ " $TESTS " == *" releases "* ]]; then
		echo "== chroots (scripts/chroots.sh all)"
		start=$SECONDS
		scripts/chroots.sh all >/dev/null || echo "== chroots: build failed; test_releases will say why"
		echo "== chroots took $((SECONDS - start)) s"
	fi
	for t in tests/integration/test_*.sh; do
		name=$(basename "$t" .sh); name=${name#test_}
		if [ -n "${TESTS:-}" ] && ! [[ " $TESTS " == *" $name "* ]]; then
			continue
		fi
		echo "== integration: $name"
		start=$SECONDS
		timeout -k 10 900 bash "$t" 2>&1 | tee "$log"
		echo "== $name took $((SECONDS - start)) s"
		count "$name" "$log"
	done
fi

echo
[ ${#failed_names[@]} = 0 ] || echo "failed: ${failed_names[*]}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
