#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Boot the test kernel under QEMU (TCG) with several NUMA nodes, run ONE guest
# scenario (tests/vm/scenarios/NAME.sh) and decide PASS/FAIL from the console.
#
# usage: run-scenario.sh [options] SCENARIO
#   SCENARIO            a name (tests/vm/scenarios/NAME.sh) or a path to a .sh file
#   --kernel FILE       bzImage (default: what build-kernel.sh prints; builds if needed)
#   --initramfs FILE    base initramfs from mkinitramfs.sh, or:
#   --build-dir DIR     make the base initramfs from a CMake build dir
#                       (DIR/cli/reclaimctl, DIR/libreclaim/, DIR/tests/vm/helpers/)
#   --log-dir DIR       where NAME.log (the full console) goes (default ./vm-logs)
#   --timeout SEC       QEMU wall-clock limit (default: the scenario's vm-timeout)
#   --append ARGS       extra kernel command line
#
# A scenario may set, in comment lines near its top:
#   # vm-timeout: SECONDS            (default 240)
#   # vm-numa: SIZE[:CPUS] ...       one token per NUMA node, e.g. 256M:0 256M:1 256M 256M
#   # vm-smp: N                      (default 2)
#   # vm-append: ARGS                extra kernel command line
#
# PASS only if the guest printed "RECLAIMCTL-VM-RESULT: PASS NAME" and the whole
# console log has no kernel warning, BUG, Oops, lockdep report, hung task,
# panic or "sleeping function called from invalid context".
# Exit status: 0 PASS, 1 FAIL, 2 usage or setup error.
#
# Environment: RECLAIMCTL_VM_CACHE (see build-kernel.sh), RECLAIMCTL_VM_QEMU
# (default qemu-system-x86_64), RECLAIMCTL_VM_ACCEL (default tcg,thread=multi),
# RECLAIMCTL_VM_APPEND (extra kernel command line).
set -euo pipefail

# All in a function: bash parses it completely before running it, so editing
# this file while a VM runs cannot derail the running instance.
main() {

	here=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
	kernel=
	initramfs=
	build=
	logdir=./vm-logs
	timeout=
	extra_append=${RECLAIMCTL_VM_APPEND:-}
	qemu=${RECLAIMCTL_VM_QEMU:-qemu-system-x86_64}
	accel=${RECLAIMCTL_VM_ACCEL:-tcg,thread=multi}

	usage() {
		awk 'NR > 2 && !/^#/ {exit} NR > 2 {sub(/^# ?/, ""); print}' "${BASH_SOURCE[0]}"
		exit "${1:-0}"
	}
	die() {
		printf 'run-scenario: error: %s\n' "$*" >&2
		exit 2
	}

	scenario=
	while (($#)); do
		case $1 in
		--kernel) kernel=${2:?} && shift ;;
		--initramfs) initramfs=${2:?} && shift ;;
		--build-dir) build=${2:?} && shift ;;
		--log-dir) logdir=${2:?} && shift ;;
		--timeout) timeout=${2:?} && shift ;;
		--append) extra_append+=" ${2:?}" && shift ;;
		-h | --help) usage 0 ;;
		-*) usage 2 >&2 ;;
		*)
			[[ -z $scenario ]] || usage 2 >&2
			scenario=$1
			;;
		esac
		shift
	done
	[[ -n $scenario ]] || usage 2 >&2

	if [[ $scenario == */* || $scenario == *.sh ]]; then
		script=$scenario
	else
		script=$here/scenarios/$scenario.sh
	fi
	[[ -f $script ]] || die "no scenario file $script"
	script=$(readlink -f "$script")
	name=$(basename "$script" .sh)
	[[ $name =~ ^[A-Za-z0-9_.-]+$ ]] || die "scenario name must be [A-Za-z0-9_.-]+: $name"

	# header settings
	header() { sed -n "s/^# vm-$1:[[:space:]]*//p" "$script" | head -n 1; }
	[[ -n $timeout ]] || timeout=$(header timeout)
	timeout=${timeout:-240}
	numa=$(header numa)
	numa=${numa:-256M:0 256M:1 256M 256M}
	smp=$(header smp)
	smp=${smp:-2}
	extra_append+=" $(header append)"

	command -v "$qemu" >/dev/null || die "$qemu not found (package qemu-system-x86)"
	if [[ -z $kernel ]]; then
		kernel=$("$here/build-kernel.sh" | tail -n 1) || die "kernel build failed"
	fi
	[[ -f $kernel ]] || die "no kernel image $kernel"

	mkdir -p "$logdir"
	logdir=$(readlink -f "$logdir")
	work=$(mktemp -d "${TMPDIR:-/tmp}/reclaimctl-vm-$name.XXXXXX")
	trap 'rm -rf "$work"' EXIT

	if [[ -z $initramfs ]]; then
		[[ -n $build ]] || die "need --initramfs FILE or --build-dir DIR"
		initramfs=$work/base.cpio
		"$here/mkinitramfs.sh" -o "$initramfs" --build-dir "$build" || die "mkinitramfs failed"
	fi
	[[ -f $initramfs ]] || die "no initramfs $initramfs"

	# Per-run overlay: guest lib + this scenario, appended as a second cpio.
	mkdir -p "$work/overlay/vm/scenarios"
	install -m 0644 "$here/guest/lib.sh" "$work/overlay/vm/lib.sh"
	install -m 0755 "$script" "$work/overlay/vm/scenarios/$name.sh"
	(cd "$work/overlay" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$work/overlay.cpio"
	cat "$initramfs" "$work/overlay.cpio" >"$work/initrd.cpio"

	# NUMA layout
	numa_args=()
	total_mb=0
	node=0
	for tok in $numa; do
		size=${tok%%:*}
		cpus=
		[[ $tok == *:* ]] && cpus=${tok#*:}
		case $size in
		*[Gg]) mb=$((${size%[Gg]} * 1024)) ;;
		*[Mm]) mb=${size%[Mm]} ;;
		*) die "vm-numa: size must end in M or G: $tok" ;;
		esac
		[[ $mb =~ ^[0-9]+$ ]] || die "vm-numa: bad size: $tok"
		total_mb=$((total_mb + mb))
		numa_args+=(-object "memory-backend-ram,id=m$node,size=${mb}M")
		if [[ -n $cpus ]]; then
			numa_args+=(-numa "node,nodeid=$node,memdev=m$node,cpus=$cpus")
		else
			numa_args+=(-numa "node,nodeid=$node,memdev=m$node")
		fi
		node=$((node + 1))
	done
	((node > 0)) || die "vm-numa: no nodes"

	log=$logdir/$name.log
	append="console=ttyS0,115200 panic=-1 printk.time=1 mitigations=off rcscenario=$name"
	append+=" $extra_append"
	append=$(echo "$append" | tr -s ' ')

	# one socket per CPU: with cores of one socket in different NUMA nodes the
	# kernel warns (topology_sane: llc-sibling not on the same node)
	cmd=("$qemu" -accel "$accel" -cpu max -smp "$smp,sockets=$smp,cores=1,threads=1" -m "${total_mb}M"
		"${numa_args[@]}"
		-nodefaults -no-user-config -display none -no-reboot
		-serial "file:$log"
		-kernel "$kernel" -initrd "$work/initrd.cpio" -append "$append")
	printf '%q ' "${cmd[@]}" >"$logdir/$name.cmd"
	echo >>"$logdir/$name.cmd"

	printf 'run-scenario: %s: %d nodes (%s), %s MiB, %d cpus, timeout %ss\n' \
		"$name" "$node" "$numa" "$total_mb" "$smp" "$timeout" >&2
	: >"$log"
	start=$SECONDS
	qrc=0
	timeout -k 10 "$timeout" "${cmd[@]}" >"$logdir/$name.qemu.out" 2>&1 </dev/null || qrc=$?
	wall=$((SECONDS - start))

	# ---------------------------------------------------------------------------
	# Verdict
	reasons=()
	if ((qrc == 124 || qrc == 137)); then
		reasons+=("QEMU timed out after ${timeout}s")
	elif ((qrc != 0)); then
		reasons+=("QEMU exited with status $qrc: $(tr '\n' ' ' <"$logdir/$name.qemu.out" | cut -c1-300)")
	fi
	clean_log=$work/console.txt
	tr -d '\r' <"$log" >"$clean_log"
	marker=$(grep -aoE "RECLAIMCTL-VM-RESULT: (PASS|FAIL) $name( |\$)" "$clean_log" | tail -n 1 || true)
	marker=${marker% }
	case $marker in
	*": PASS $name") ;;
	*": FAIL $name") reasons+=("the guest scenario reported FAIL") ;;
	*) reasons+=("no result marker on the console (guest crashed, hung or never ran the scenario)") ;;
	esac
	bad_re='WARNING:|BUG:|Oops|kernel BUG at|general protection fault|Kernel panic'
	bad_re+='|possible circular locking|inconsistent lock state|possible recursive locking'
	bad_re+='|blocked for more than|hung_task|sleeping function called from invalid context'
	bad_re+='|detected stalls|soft lockup|hard LOCKUP'
	bad_lines=$(grep -anE "$bad_re" "$clean_log" || true)
	if [[ -n $bad_lines ]]; then
		reasons+=("the kernel log has warnings/errors")
	fi

	if ((${#reasons[@]} == 0)); then
		printf 'RESULT: PASS %s (%ss wall, log %s)\n' "$name" "$wall" "$log"
		exit 0
	fi

	{
		printf '\n===== console tail (%s) =====\n' "$log"
		tail -n 80 "$clean_log"
		if [[ -n $bad_lines ]]; then
			printf '\n===== kernel problems =====\n'
			printf '%s\n' "$bad_lines" | head -n 40
			first=$(printf '%s\n' "$bad_lines" | head -n 1 | cut -d: -f1)
			printf '\n===== first report in context (line %s) =====\n' "$first"
			sed -n "$((first > 5 ? first - 5 : 1)),$((first + 40))p" "$clean_log"
		fi
		failed_checks=$(grep -aE '^(FAIL|FATAL): ' "$clean_log" | head -n 40 || true)
		if [[ -n $failed_checks ]]; then
			printf '\n===== failed checks =====\n%s\n' "$failed_checks"
		fi
		printf '\n'
	} >&2
	for r in "${reasons[@]}"; do
		printf 'run-scenario: %s: %s\n' "$name" "$r" >&2
	done
	printf 'RESULT: FAIL %s (%ss wall, log %s)\n' "$name" "$wall" "$log"
	exit 1
}

main "$@"
