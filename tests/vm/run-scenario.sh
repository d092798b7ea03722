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
#   --build-dir DIR     a CMake build dir: the base initramfs is made from
#                       DIR/cli/reclaimctl, DIR/libreclaim/, DIR/tests/vm/helpers/;
#                       a "vm-root: debian" scenario installs DIR into its image
#                       (DESTDIR=... cmake --install DIR) and needs this option
#   --log-dir DIR       where NAME.log (the full console) goes (default ./vm-logs)
#   --timeout SEC       QEMU wall-clock limit of each boot (default: the
#                       scenario's vm-timeout)
#   --append ARGS       extra kernel command line
#   --keep-image FILE   (vm-root: debian) keep the disk image there after the run
#
# A scenario may set, in comment lines near its top:
#   # vm-timeout: SECONDS            (default 240)
#   # vm-numa: SIZE[:CPUS] ...       one token per NUMA node, e.g. 256M:0 256M:1 256M 256M;
#       SIZE 0: a node without memory (CPUs only, or nothing). A node with
#       neither is in ACPI SRAT only when it is the last one and vm-maxmem is
#       set (QEMU gives it the hot-plug range); Linux numbers the nodes SRAT
#       names in order, so any other such node shifts the numbers after it,
#       and a DIMM plugged into it lands on node 0: keep it last
#   # vm-smp: N                      (default 2)
#   # vm-disk: SIZE                  (vm-root: initramfs) a scratch virtio disk of
#       SIZE (NNNM, NNNG), /dev/vda in the guest, whose every 4 KiB block
#       differs from the others; thrown away after the run
#   # vm-append: ARGS                extra kernel command line
#   # vm-expect-warning: ERE         a kernel WARNING the scenario causes on
#       purpose: "WARNING: ..." lines matching ERE (e.g. the place
#       "at mm/page_alloc.c:[0-9]+ __alloc_pages_slowpath") do not fail it;
#       every other warning, and every other problem, still does
#   # vm-root: initramfs|debian      (default initramfs) what the kernel boots:
#       initramfs  busybox /init runs the scenario (guest/init)
#       debian     systemd as PID 1 on an ext4 root on virtio-blk (/dev/vda):
#                  the cached Debian root of mkrootfs.sh + the build installed
#                  with cmake --install + the test-only unit
#                  guest/reclaimctl-vm-check.service, which runs the scenario
#                  after the boot (guest/run-check) and powers off; the files
#                  under scenarios/NAME.root/ (if present) are copied over the
#                  image's root first
#   # vm-kernel: patched|debian      (default patched) the kernel booted:
#       patched    the project's (build-kernel.sh), or --kernel FILE
#       debian     Debian's own, unpatched (debian-kernel.sh); its modules the
#                  scenario loads are in /vm/modules; with vm-root: debian an
#                  initramfs of its own loads its virtio and ext4 modules,
#                  mounts the image and hands over to the image's systemd
#   # vm-enable: UNIT...             (vm-root: debian) systemctl --root=IMAGE enable
#   # vm-boots: N                    (vm-root: debian; default 1) boot the same
#       disk N times in a row, each with rcboot=K/N on the kernel command line
#       (the scenario sees RECLAIMCTL_VM_BOOT=K, RECLAIMCTL_VM_BOOTS=N); the
#       timeout is per boot
#   # vm-share: 1|2                  (CTest, not this script) the scenario asserts
#       nothing about how long anything takes, and may run beside one of the
#       other number; every other scenario runs alone
#   # vm-maxmem: SIZE,SLOTS          room for memory hot-plug: -m TOTAL,slots=SLOTS,maxmem=SIZE
#       (TOTAL: the sum of vm-numa; SIZE above it, e.g. 2G,4)
#   # vm-lockdep: on|off             (vm-kernel: patched; default on) off: the
#       test module lockdep_off turns lockdep off early in the boot (rclockdep=off
#       on the command line; the initramfs's /init, or a unit of the Debian
#       image, loads it), and the console must say so. For the scenarios that
#       test reclaimctl rather than the series' locking: lockdep's bookkeeping
#       doubles the CPU time of a scenario under memory pressure under TCG.
#   # vm-tcg: single|multi           (default single) how QEMU's TCG runs the
#       vCPUs: single, in turn on one host thread; multi, each on a thread of
#       its own, at the same time. For the scenarios that test races between
#       CPUs, or whose checks bound times or CPU shares a controller reads:
#       multi (one that compares two views of the same guest runs
#       single). Single costs a third less host CPU, and more beside
#       another QEMU or a host test, where multi's vCPUs wait on each
#       other's preempted threads.
#   # vm-monitor: yes                the guest may run QEMU monitor commands: a
#       console line "RECLAIMCTL-VM-MONITOR: COMMAND" (lib.sh vm_monitor) is
#       sent once, in order, to QEMU's QMP socket (-qmp unix:TMP/qmp.sock) by
#       monitor-relay.py, which tails the console while QEMU runs: an HMP
#       command line (object_add ..., device_add pc-dimm,..., device_del ID)
#       or, starting with "{", a QMP command in JSON. The guest gets no
#       answer: it waits for the effect. rcmonitor=1 is on the kernel command
#       line. Requests, answers and QMP events go to LOG-DIR/NAME.monitor.log;
#       a request that fails (an HMP "Error: ...", a QMP error, no answer, a
#       line garbled by a kernel message) FAILs the scenario.
#
# PASS only if the guest printed "RECLAIMCTL-VM-RESULT: PASS NAME" and the whole
# console log has no kernel warning, BUG, Oops, lockdep report, hung task,
# panic or "sleeping function called from invalid context". With vm-boots: N,
# every boot before the last must end with "RECLAIMCTL-VM-RESULT: NEXT NAME"
# instead and its console must be as clean; the first boot that fails ends the
# scenario (FAIL). The logs are then LOG-DIR/NAME.bootK.{log,cmd,qemu.out}
# per boot instead of NAME.{log,cmd,qemu.out} (and .monitor.log).
# Exit status: 0 PASS, 1 FAIL, 2 usage or setup error.
#
# Environment: RECLAIMCTL_VM_CACHE (see build-kernel.sh), RECLAIMCTL_VM_QEMU
# (default qemu-system-x86_64), RECLAIMCTL_VM_ACCEL (default: tcg, threaded as vm-tcg says),
# RECLAIMCTL_VM_APPEND (extra kernel command line), RECLAIMCTL_VM_NICE (QEMU's
# nice value, default 0), RECLAIMCTL_VM_ROOT_OVERLAY (vm-root: debian: a tree
# copied over the image after the scenario's own files, e.g. a benchmark's
# kernel headers), RECLAIMCTL_VM_CONFIG_EXTRA (build-kernel.sh) and
# RECLAIMCTL_VM_ROOTFS_EXTRA (mkrootfs.sh).
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
	accel=${RECLAIMCTL_VM_ACCEL:-}
	# QEMU's nice value. Beside a host test a scenario costs about 40% more
	# CPU time whatever the priority (tests/vm/README.md: the scenarios of
	# a cold run took 1,820 CPU-seconds at -5, 1,691 at 0), so 0
	vm_nice=${RECLAIMCTL_VM_NICE:-0}

	usage() {
		awk 'NR > 2 && !/^#/ {exit} NR > 2 {sub(/^# ?/, ""); print}' "${BASH_SOURCE[0]}"
		exit "${1:-0}"
	}
	die() {
		printf 'run-scenario: error: %s\n' "$*" >&2
		exit 2
	}

	scenario=
	keep_image=
	while (($#)); do
		case $1 in
		--kernel) kernel=${2:?} && shift ;;
		--initramfs) initramfs=${2:?} && shift ;;
		--build-dir) build=${2:?} && shift ;;
		--log-dir) logdir=${2:?} && shift ;;
		--timeout) timeout=${2:?} && shift ;;
		--append) extra_append+=" ${2:?}" && shift ;;
		--keep-image) keep_image=${2:?} && shift ;;
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
	vmroot=$(header root)
	vmroot=${vmroot:-initramfs}
	case $vmroot in
	initramfs | debian) ;;
	*) die "vm-root: must be initramfs or debian: $vmroot" ;;
	esac
	boots=$(header boots)
	boots=${boots:-1}
	[[ $boots =~ ^[1-9][0-9]?$ ]] || die "vm-boots: must be a number 1..99: $boots"
	[[ $boots == 1 || $vmroot == debian ]] || die "vm-boots: $boots needs vm-root: debian (a disk that persists)"
	maxmem=$(header maxmem)
	monitor=$(header monitor)
	expect_warning=$(header expect-warning)
	monitor=${monitor:-no}
	case $monitor in
	yes | no) ;;
	*) die "vm-monitor: must be yes or no: $monitor" ;;
	esac
	python=
	if [[ $monitor == yes ]]; then
		python=$(command -v python3) || die "vm-monitor: yes needs python3 on the host (scripts/deps.sh test)"
	fi

	command -v "$qemu" >/dev/null || die "$qemu not found (package qemu-system-x86)"
	vmkernel=$(header kernel)
	case ${vmkernel:-patched} in
	patched)
		if [[ -z $kernel ]]; then
			kernel=$("$here/build-kernel.sh" | tail -n 1) || die "kernel build failed"
		fi
		;;
	debian)
		kernel=$("$here/debian-kernel.sh" | tail -n 1) || die "no Debian kernel"
		;;
	*) die "vm-kernel: must be patched or debian: $vmkernel" ;;
	esac
	tcg=$(header tcg)
	case ${tcg:=single} in
	single | multi) accel=${accel:-tcg,thread=$tcg} ;;
	*) die "vm-tcg: must be single or multi: $tcg" ;;
	esac
	lockdep=$(header lockdep)
	case ${lockdep:=on} in
	on) ;;
	off)
		[[ ${vmkernel:-patched} == patched ]] || die "vm-lockdep: off needs the patched kernel (Debian's has no lockdep)"
		[[ -f $(dirname "$kernel")/modules/lockdep_off.ko ]] || die "no lockdep_off.ko beside $kernel (build-kernel.sh)"
		extra_append+=" rclockdep=off"
		;;
	*) die "vm-lockdep: must be on or off: $lockdep" ;;
	esac
	[[ -f $kernel ]] || die "no kernel image $kernel"

	mkdir -p "$logdir"
	logdir=$(readlink -f "$logdir")
	work=$(mktemp -d "${TMPDIR:-/tmp}/reclaimctl-vm-$name.XXXXXX")
	relay_pid=
	# stop_relay: end the monitor relay of a boot (it ends by itself when
	# QEMU closes the socket; this waits 5 s for that, then kills it)
	stop_relay() {
		local i
		[[ -n $relay_pid ]] || return 0
		for ((i = 0; i < 50; i++)); do
			kill -0 "$relay_pid" 2>/dev/null || break
			sleep 0.1
		done
		kill "$relay_pid" 2>/dev/null || true
		wait "$relay_pid" 2>/dev/null || true
		relay_pid=
	}
	trap 'if [[ -n $relay_pid ]]; then kill "$relay_pid" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
	qmp_sock=$work/qmp.sock
	[[ $monitor == no || ${#qmp_sock} -lt 100 ]] ||
		die "vm-monitor: socket path too long for a unix socket: $qmp_sock (set TMPDIR)"

	# make_debian_image IMG: the ext4 disk of a "vm-root: debian" scenario.
	make_debian_image() {
		local img=$1 base stage f unit units=() mb t0=$SECONDS
		((EUID == 0)) || die "vm-root: debian needs root (files owned by root in the image, chroot)"
		local tool
		for tool in mkfs.ext4 systemctl ldconfig chroot cmake; do
			command -v "$tool" >/dev/null || die "$tool not found (scripts/deps.sh test)"
		done
		base=$("$here/mkrootfs.sh" | tail -n 1) || die "mkrootfs.sh failed"
		[[ -d $base ]] || die "no Debian root $base"
		stage=$work/root
		cp -a "$base" "$stage"

		# The project, installed as an administrator would.
		if ! DESTDIR=$stage cmake --install "$build" >"$work/install.log" 2>&1; then
			cat "$work/install.log" >&2
			die "cmake --install $build failed"
		fi
		# The test side: guest lib, the scenario, the check unit and its script,
		# the static helpers (jsonq ...).
		mkdir -p "$stage/vm/scenarios" "$stage/vm/bin"
		install -m 0644 "$here/guest/lib.sh" "$stage/vm/lib.sh"
		install -m 0755 "$here/guest/run-check" "$stage/vm/run-check"
		install -m 0755 "$script" "$stage/vm/scenarios/$name.sh"
		for f in "$build"/tests/vm/helpers/*; do
			[[ -f $f && -x $f ]] && install -m 0755 "$f" "$stage/vm/bin/"
		done
		install -m 0644 "$here/guest/reclaimctl-vm-check.service" \
			"$stage/etc/systemd/system/reclaimctl-vm-check.service"
		install -m 0644 "$here/guest/reclaimctl-vm-lockdep-off.service" \
			"$stage/etc/systemd/system/reclaimctl-vm-lockdep-off.service"
		if [[ -d $(dirname "$kernel")/modules ]]; then
			mkdir -p "$stage/vm/modules"
			install -m 0644 "$(dirname "$kernel")"/modules/*.ko "$stage/vm/modules/"
		fi
		# The scenario's own files (configuration, presets ...), owned by root.
		if [[ -d ${script%.sh}.root ]]; then
			cp -r --no-preserve=ownership "${script%.sh}.root/." "$stage/"
		fi
		if [[ -n ${RECLAIMCTL_VM_ROOT_OVERLAY:-} ]]; then
			[[ -d $RECLAIMCTL_VM_ROOT_OVERLAY ]] || die "no directory $RECLAIMCTL_VM_ROOT_OVERLAY (RECLAIMCTL_VM_ROOT_OVERLAY)"
			cp -a "$RECLAIMCTL_VM_ROOT_OVERLAY/." "$stage/"
		fi
		ldconfig -r "$stage"
		# Every program the build installed must find its libraries in the image.
		while IFS= read -r f; do
			head -c 4 "$f" | cmp -s - <(printf '\177ELF') || continue
			if chroot "$stage" ldd "${f#"$stage"}" 2>&1 | grep 'not found' >/dev/null; then
				chroot "$stage" ldd "${f#"$stage"}" >&2 || true
				die "${f#"$stage"}: libraries missing in the image (mkrootfs.sh PACKAGES)"
			fi
		done < <(find "$stage/usr/local/bin" "$stage/usr/local/sbin" -type f 2>/dev/null)
		# Units: enabled the way an administrator does it, against the image.
		read -ra units <<<"$(header enable)"
		for unit in "${units[@]}" reclaimctl-vm-check.service reclaimctl-vm-lockdep-off.service; do
			if ! systemctl --root="$stage" enable "$unit" >>"$work/enable.log" 2>&1; then
				cat "$work/enable.log" >&2
				die "systemctl --root=IMAGE enable $unit failed"
			fi
		done
		# the tree as an ext4 file system (no loop mount): its size + room
		# for the journal and what the scenario writes
		mb=$(du -sm "$stage" | cut -f1)
		mb=$((mb + mb / 4 + 128))
		truncate -s "${mb}M" "$img"
		if ! mkfs.ext4 -q -F -L reclaimctl-vm -d "$stage" "$img" >"$work/mkfs.log" 2>&1; then
			cat "$work/mkfs.log" >&2
			die "mkfs.ext4 -d failed"
		fi
		rm -rf "$stage"
		printf 'run-scenario: %s: image %s MiB, made in %d s\n' "$name" "$mb" "$((SECONDS - t0))" >&2
	}

	# make_disk_initramfs FILE: for Debian's kernel, whose virtio and ext4 are
	# modules: an initramfs that loads them (debian-kernel.sh's boot-modules,
	# in their order), mounts the image's disk and hands over to its systemd
	make_disk_initramfs() {
		local out=$1 dir=$work/bootfs mods busybox
		mods=$(dirname "$kernel")/boot-modules
		busybox=$(command -v busybox) || die "busybox not found (package busybox-static)"
		[[ -f $mods/order ]] || die "no $mods/order (debian-kernel.sh)"
		mkdir -p "$dir/bin" "$dir/modules"
		cp "$busybox" "$dir/bin/busybox"
		cp "$mods"/*.ko "$mods/order" "$dir/modules/"
		cat >"$dir/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mkdir -p /proc /sys /dev /newroot
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in $(cat /modules/order); do
	insmod "/modules/$m.ko" || echo "initramfs: insmod $m failed"
done
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
if ! mount -t ext4 -o rw /dev/vda /newroot; then
	echo "initramfs: cannot mount /dev/vda"
	poweroff -f
fi
umount /proc /sys
mount --move /dev /newroot/dev
exec switch_root /newroot /sbin/init
INIT
		chmod 0755 "$dir/init"
		(cd "$dir" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$out" ||
			die "cannot make the initramfs of the disk's boot"
	}

	# make_scratch_disk FILE MIB: MIB of data that no page is the same in
	# (not sparse: the guest reads what the host really stores), under
	# cache=unsafe so that the host's page cache serves most of it
	make_scratch_disk() {
		python3 -c '
import sys
with open(sys.argv[1], "wb") as f:
    for i in range(int(sys.argv[2]) * 256):
        f.write(i.to_bytes(8, "little") * 512)
' "$1" "$2" || die "cannot write the scratch disk $1"
	}

	boot_args=()
	root_append=
	if [[ $vmroot == initramfs ]]; then
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
		# the shipped presets, for RECLAIMCTL_PRESET_DIR=/vm/presets
		mkdir -p "$work/overlay/vm/presets"
		install -m 0644 "$here"/../../presets/*.preset "$work/overlay/vm/presets/"
		# the test modules built with this kernel (build-kernel.sh), as /vm/modules/*.ko
		if [[ -d $(dirname "$kernel")/modules ]]; then
			mkdir -p "$work/overlay/vm/modules"
			cp "$(dirname "$kernel")"/modules/*.ko "$work/overlay/vm/modules/"
		fi
		(cd "$work/overlay" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$work/overlay.cpio"
		cat "$initramfs" "$work/overlay.cpio" >"$work/initrd.cpio"
		boot_args=(-initrd "$work/initrd.cpio")
	else
		[[ -n $build ]] || die "vm-root: debian needs --build-dir DIR (the build is installed into the image)"
		make_debian_image "$work/root.img"
		# cache=unsafe: the image is thrown away after the run
		boot_args=(-drive "file=$work/root.img,format=raw,if=virtio,cache=unsafe")
		if [[ $vmkernel == debian ]]; then
			make_disk_initramfs "$work/boot.cpio"
			boot_args+=(-initrd "$work/boot.cpio")
		fi
		# systemd.show_status=1: the units' progress on the console, for the log
		root_append="root=/dev/vda rw rootfstype=ext4 rootwait systemd.show_status=1"
	fi

	# size_mb WHAT SIZE: SIZE (NNNM, NNNG; 0) in MiB, into mb
	size_mb() {
		case $2 in
		0) mb=0 ;;
		*[Gg]) mb=${2%[Gg]} && [[ $mb =~ ^[0-9]+$ ]] && mb=$((mb * 1024)) ;;
		*[Mm]) mb=${2%[Mm]} ;;
		*) die "$1: size must end in M or G: $2" ;;
		esac
		[[ $mb =~ ^[0-9]+$ ]] || die "$1: bad size: $2"
		mb=$((10#$mb))
	}

	# a scratch disk for the scenario, /dev/vda in the guest
	disk=$(header disk)
	if [[ -n $disk ]]; then
		[[ $vmroot == initramfs ]] || die "vm-disk: only with vm-root: initramfs"
		size_mb vm-disk "$disk"
		make_scratch_disk "$work/scratch.img" "$mb"
		boot_args+=(-drive "file=$work/scratch.img,format=raw,if=virtio,cache=unsafe")
	fi

	# NUMA layout
	numa_args=()
	total_mb=0
	node=0
	for tok in $numa; do
		size=${tok%%:*}
		cpus=
		[[ $tok == *:* ]] && cpus=${tok#*:}
		size_mb vm-numa "$size"
		total_mb=$((total_mb + mb))
		memdev=
		# a node without memory: no memory backend
		if ((mb > 0)); then
			numa_args+=(-object "memory-backend-ram,id=m$node,size=${mb}M")
			memdev=,memdev=m$node
		fi
		numa_args+=(-numa "node,nodeid=$node$memdev${cpus:+,cpus=$cpus}")
		node=$((node + 1))
	done
	((node > 0)) || die "vm-numa: no nodes"
	((total_mb > 0)) || die "vm-numa: no node has memory"

	# memory: fixed, or with room for hot-plugged DIMMs
	mem_arg=${total_mb}M
	maxmem_msg=
	if [[ -n $maxmem ]]; then
		[[ $maxmem =~ ^([^,]+),([0-9]+)$ ]] || die "vm-maxmem: must be SIZE,SLOTS: $maxmem"
		slots=${BASH_REMATCH[2]}
		size_mb vm-maxmem "${BASH_REMATCH[1]}"
		((mb > total_mb)) || die "vm-maxmem: $maxmem: SIZE must be more than the ${total_mb} MiB of vm-numa"
		((slots >= 1 && slots <= 256)) || die "vm-maxmem: SLOTS must be 1..256: $maxmem"
		mem_arg=${total_mb}M,slots=$slots,maxmem=${mb}M
		maxmem_msg=", maxmem ${mb} MiB in $slots slots"
	fi

	# the kernel command line and QEMU command of boot K/N; the console goes to $log
	boot_cmd() {
		local k=$1 append
		# RCU's stall warning after 60 s rather than 21: under TCG a guest runs
		# ten to fifty times slower than the hardware that default is made
		# for, and swapoff at a shutdown, decompressing a zram page by page
		# between two cond_resched(), once went 26 s without a quiescent
		# state while the host was busy
		append="console=ttyS0,115200 panic=-1 printk.time=1 mitigations=off rcupdate.rcu_cpu_stall_timeout=60 rcscenario=$name"
		((boots == 1)) || append+=" rcboot=$k/$boots"
		[[ $monitor == no ]] || append+=" rcmonitor=1"
		append+=" $root_append $extra_append"
		append=$(echo "$append" | tr -s ' ')
		# one socket per CPU: with cores of one socket in different NUMA nodes the
		# kernel warns (topology_sane: llc-sibling not on the same node)
		cmd=("$qemu" -accel "$accel" -cpu max -smp "$smp,sockets=$smp,cores=1,threads=1" -m "$mem_arg"
			"${numa_args[@]}"
			-nodefaults -no-user-config -display none -no-reboot
			-serial "file:$log")
		[[ $monitor == no ]] || cmd+=(-qmp "unix:$qmp_sock,server=on,wait=off")
		cmd+=(-kernel "$kernel" "${boot_args[@]}" -append "$append")
	}

	bad_re='WARNING:|BUG:|Oops|kernel BUG at|general protection fault|Kernel panic'
	bad_re+='|possible circular locking|inconsistent lock state|possible recursive locking'
	bad_re+='|blocked for more than|hung_task|sleeping function called from invalid context'
	bad_re+='|detected stalls|soft lockup|hard LOCKUP'

	# verdict K WANT: the reasons why boot K failed (none: it passed), from
	# QEMU's exit status $qrc, the marker (WANT: PASS, or NEXT for a boot
	# before the last) and the whole console of that boot
	verdict() {
		local k=$1 want=$2 marker
		reasons=()
		if ((qrc == 124 || qrc == 137)); then
			reasons+=("QEMU timed out after ${timeout}s")
		elif ((qrc != 0)); then
			reasons+=("QEMU exited with status $qrc: $(tr '\n' ' ' <"$qemu_out" | cut -c1-300)")
		fi
		tr -d '\r' <"$log" >"$clean_log"
		marker=$(grep -aoE "RECLAIMCTL-VM-RESULT: (PASS|FAIL|NEXT) $name( |\$)" "$clean_log" | tail -n 1 || true)
		marker=${marker% }
		case $marker in
		*": $want $name") ;;
		*": FAIL $name") reasons+=("the guest scenario reported FAIL") ;;
		*": "[A-Z]*" $name") reasons+=("the guest said ${marker#*: }, expected $want $name in boot $k/$boots") ;;
		*) reasons+=("no result marker on the console (guest crashed, hung or never ran the scenario)") ;;
		esac
		bad_lines=$(grep -anE "$bad_re" "$clean_log" || true)
		if [[ -n $expect_warning && -n $bad_lines ]]; then
			bad_lines=$(grep -vE "^[0-9]+:.*WARNING: .*($expect_warning)" <<<"$bad_lines" || true)
		fi
		if [[ -n $bad_lines ]]; then
			reasons+=("the kernel log has warnings/errors")
		fi
		if [[ $lockdep == off ]] && ! grep -aq 'lockdep_off: lockdep is off for this boot' "$clean_log"; then
			reasons+=("vm-lockdep: off, but the console does not say lockdep_off turned it off")
		fi
		local f
		if [[ $monitor == yes && -s $work/monitor.failed ]]; then
			while IFS= read -r f; do
				reasons+=("monitor request failed: $f")
			done <"$work/monitor.failed"
		fi
	}

	boots_msg=
	((boots == 1)) || boots_msg=", $boots boots"
	monitor_msg=
	[[ $monitor == no ]] || monitor_msg=", QEMU monitor"
	printf 'run-scenario: %s: %d nodes (%s), %s MiB%s, %d cpus, %s%s%s, timeout %ss%s\n' \
		"$name" "$node" "$numa" "$total_mb" "$maxmem_msg" "$smp" "$vmroot" "$boots_msg" "$monitor_msg" \
		"$timeout" "${boots_msg:+ per boot}" >&2
	clean_log=$work/console.txt
	# NAME.log, .cmd, .qemu.out; with several boots NAME.bootK.log ... per boot
	rm -f "$logdir/$name".boot[0-9]*.{log,cmd,qemu.out,monitor.log} "$logdir/$name.monitor.log"
	start=$SECONDS
	reasons=()
	for ((k = 1; k <= boots; k++)); do
		stem=$logdir/$name
		((boots == 1)) || stem+=.boot$k
		log=$stem.log
		qemu_out=$stem.qemu.out
		boot_cmd "$k"
		printf '%q ' "${cmd[@]}" >"$stem.cmd"
		echo >>"$stem.cmd"
		: >"$log"
		if [[ $monitor == yes ]]; then
			# the relay connects when QEMU has made the socket, and ends
			# when QEMU closes it
			rm -f "$qmp_sock"
			: >"$work/monitor.failed"
			: >"$stem.monitor.log"
			# shellcheck disable=SC2094 # the relay and its stderr both append
			"$python" "$here/monitor-relay.py" "$qmp_sock" "$log" "$stem.monitor.log" \
				"$work/monitor.failed" </dev/null >>"$stem.monitor.log" 2>&1 &
			relay_pid=$!
		fi
		t0=$SECONDS
		qrc=0
		nice -n "$vm_nice" timeout -k 10 "$timeout" "${cmd[@]}" >"$qemu_out" 2>&1 </dev/null || qrc=$?
		stop_relay
		if ((k < boots)); then verdict "$k" NEXT; else verdict "$k" PASS; fi
		if ((boots > 1)); then
			outcome=ok
			((${#reasons[@]} == 0)) || outcome=FAIL
			printf 'run-scenario: %s: boot %d/%d: %s (%ss, log %s)\n' \
				"$name" "$k" "$boots" "$outcome" "$((SECONDS - t0))" "$log" >&2
		fi
		# a failed boot ends the scenario: the next one would start from a broken state
		((${#reasons[@]} == 0)) || break
	done
	wall=$((SECONDS - start))
	# the CPU time of everything it ran (QEMU above all): the scenarios are
	# most of a test run's CPU time
	# (times in this shell: in a pipeline or $(...) it would be a subshell's)
	times >"$work/times"
	cpu=$(awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] } printf "%.0f", s }' "$work/times")
	if [[ -n $keep_image && -f $work/root.img ]]; then
		mv "$work/root.img" "$keep_image"
	fi

	logs=$log
	((boots == 1)) || logs="$logdir/$name.boot{1..$boots}.log"
	if ((${#reasons[@]} == 0)); then
		printf 'RESULT: PASS %s (%ss wall, %ss CPU, log %s)\n' "$name" "$wall" "$cpu" "$logs"
		exit 0
	fi

	prefix=
	((boots == 1)) || prefix="boot $k/$boots: "
	{
		printf '\n===== console tail (%s) =====\n' "$log"
		tail -n 80 "$clean_log"
		if [[ -n $bad_lines ]]; then
			printf '\n===== kernel problems =====\n'
			# no "| head" under pipefail: the writer may die of SIGPIPE
			sed -n 1,40p <<<"$bad_lines"
			first=${bad_lines%%:*}
			printf '\n===== first report in context (line %s) =====\n' "$first"
			sed -n "$((first > 5 ? first - 5 : 1)),$((first + 40))p" "$clean_log"
		fi
		failed_checks=$(grep -aE '^(FAIL|FATAL): ' "$clean_log" | head -n 40 || true)
		if [[ -n $failed_checks ]]; then
			printf '\n===== failed checks =====\n%s\n' "$failed_checks"
		fi
		if [[ $monitor == yes ]]; then
			printf '\n===== monitor (%s) =====\n' "$stem.monitor.log"
			tail -n 40 "$stem.monitor.log"
		fi
		printf '\n'
	} >&2
	for r in "${reasons[@]}"; do
		printf 'run-scenario: %s: %s%s\n' "$name" "$prefix" "$r" >&2
	done
	printf 'RESULT: FAIL %s (%ss wall, %ss CPU, log %s)\n' "$name" "$wall" "$cpu" "$log"
	exit 1
}

main "$@"
