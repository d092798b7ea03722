# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The cache mechanics shared by build-kernel.sh and mkrootfs.sh: their
# options, the lock that makes concurrent runs wait for one build, and the
# pruning of old entries. The sourcing script defines log() and die().

# cache_options SELF ARG...: sets print_key and force from --print-key and
# --force; --help prints SELF's header comment.
# shellcheck disable=SC2034 # print_key and force are the caller's
cache_options() {
	local self=$1 arg
	shift
	print_key=0
	force=0
	for arg in "$@"; do
		case $arg in
		--print-key) print_key=1 ;;
		--force) force=1 ;;
		-h | --help)
			awk 'NR > 2 && !/^#/ {exit} NR > 2 {sub(/^# ?/, ""); print}' "$self"
			exit 0
			;;
		*) die "unknown argument: $arg" ;;
		esac
	done
}

# cache_lock CACHE NAME: creates CACHE and waits for the lock CACHE/NAME,
# held on file descriptor 9 until the script exits.
cache_lock() {
	mkdir -p "$1" || die "cannot create cache dir $1 (set RECLAIMCTL_VM_CACHE)"
	exec 9>"$1/$2"
	log "waiting for the lock $1/$2"
	flock 9
}

# cache_prune CACHE PREFIX KEEP OUT: removes the directories CACHE/PREFIX-*
# but the newest KEEP, and never OUT.
cache_prune() {
	local old
	find "$1" -mindepth 1 -maxdepth 1 -type d -name "$2-*" -printf '%T@ %p\n' |
		sort -rn | tail -n +$(($3 + 1)) | cut -d' ' -f2- |
		while IFS= read -r old; do
			[[ $old == "$4" ]] || rm -rf "$old"
		done
}
