#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-units.sh CATALOG JOURNAL_H UNIT...
#  - each unit passes systemd-analyze verify (but for the binary and man
#    pages, which are not installed here) and systemd-analyze security
#    --offline=yes rates each service 2.5 or better (a timer runs nothing);
#  - the journal catalog has one entry for each MESSAGE_ID of JOURNAL_H and
#    no other, and journalctl compiles it: in a scratch root,
#    --update-catalog then --list-catalog lists each of them with its subject.
# Prints TAP. Exit status 0 all passed, 1 a check failed, 77 (skipped)
# without systemd-analyze or journalctl.
set -uo pipefail
catalog=$1 journal_h=$2
shift 2
# shellcheck source=tap.sh
. "$(dirname "$0")/tap.sh"
for tool in systemd-analyze journalctl; do
	command -v "$tool" >/dev/null || {
		echo "skipped: no $tool"
		exit 77
	}
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
MAX=2.5

for unit in "$@"; do
	name=${unit##*/}
	out='' score=''
	if [ "${name##*.}" = service ]; then
		out=$(systemd-analyze security --offline=yes --no-pager "$unit" 2>&1)
		score=$(sed -n 's/^→ Overall exposure level for .*: \([0-9.]*\) .*/\1/p' <<<"$out")
	fi
	if [ "${name##*.}" != service ]; then
		: # a timer runs nothing itself
	elif [ -n "$score" ] && awk -v s="$score" -v m="$MAX" 'BEGIN { exit !(s <= m) }'; then
		result ok "$name: systemd-analyze security rates it $score (at most $MAX)"
	else
		result fail "$name: systemd-analyze security rates it ${score:-?} (more than $MAX)" \
			"$(grep '✗' <<<"$out")"
	fi
	# the unit's binary and man pages are those of the installation
	out=$(systemd-analyze verify --man=no "$unit" 2>&1 | grep -v 'is not executable\|No such file')
	if [ -z "$out" ]; then
		result ok "$name: systemd-analyze verify"
	else
		result fail "$name: systemd-analyze verify" "$out"
	fi
done

grep -oE '^#define JOURNAL_ID_[A-Z]+[[:space:]]+"[0-9a-f]{32}"' "$journal_h" | grep -oE '[0-9a-f]{32}' |
	sort >"$work/ids"
grep -oE '^-- [0-9a-f]{32}$' "$catalog" | cut -c4- | sort >"$work/entries"
if [ -s "$work/ids" ] && diff -u "$work/ids" "$work/entries" >"$work/diff"; then
	result ok "the catalog has an entry for each of the $(wc -l <"$work/ids") MESSAGE_IDs and no other"
else
	result fail "the catalog's entries are not the MESSAGE_IDs of $journal_h (- ids, + entries)" \
		"$(cat "$work/diff")"
fi
root=$work/root
mkdir -p "$root/usr/lib/systemd/catalog" "$root/var/lib/systemd/catalog"
cp "$catalog" "$root/usr/lib/systemd/catalog/"
if journalctl --root="$root" --update-catalog >"$work/update" 2>&1; then
	result ok "journalctl --update-catalog compiles it"
else
	result fail "journalctl --update-catalog compiles it" "$(cat "$work/update")"
fi
journalctl --root="$root" --list-catalog >"$work/list" 2>&1
while read -r id; do
	subject=$(awk -v id="$id" '$0 == "-- " id { f = 1; next } f && /^Subject:/ { sub(/^Subject: /, ""); print; exit }' "$catalog")
	if grep -qxF "$id reclaimctl: $subject" "$work/list"; then
		result ok "journalctl --list-catalog: $id $subject"
	else
		result fail "journalctl --list-catalog has $id with its subject" "$(cat "$work/list")"
	fi
done <"$work/ids"
echo "1..$n"
[ "$failed" = 0 ]
