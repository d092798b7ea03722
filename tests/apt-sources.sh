# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The Debian mirrors this machine's apt uses, for mmdebstrap: sourced by
# tests/vm/mkrootfs.sh (the systemd guests' root) and
# tests/package/check-deb.sh (the packages' install test).

# apt_sources CODENAME: one "deb URI SUITE main" line per source of the host's
# apt configuration for CODENAME, CODENAME-updates or CODENAME-security.
apt_sources() {
	local codename=$1 f
	{
		for f in /etc/apt/sources.list.d/*.sources; do
			[[ -f $f ]] || continue
			# deb822: stanzas separated by blank lines; fields may continue
			# on indented lines.
			awk '
			function flush() {
				if (enabled != "no" && types ~ /(^| )deb( |$)/ && comps ~ /(^| )main( |$)/) {
					n = split(uris, u, " "); m = split(suites, s, " ")
					for (i = 1; i <= n; i++) for (j = 1; j <= m; j++) print u[i], s[j]
				}
				types = uris = suites = comps = last = ""; enabled = ""
			}
			/^#/ { next }
			/^[ \t]*$/ { flush(); next }
			/^[ \t]/ { v = $0; gsub(/^[ \t]+|[ \t]+$/, "", v)
				if (last == "uris") uris = uris " " v
				else if (last == "suites") suites = suites " " v
				else if (last == "components") comps = comps " " v
				else if (last == "types") types = types " " v
				next }
			{ k = tolower($0); sub(/:.*/, "", k); v = $0; sub(/^[^:]*:[ \t]*/, "", v); sub(/[ \t]+$/, "", v); last = k
				if (k == "types") types = v; else if (k == "uris") uris = v
				else if (k == "suites") suites = v; else if (k == "components") comps = v
				else if (k == "enabled") enabled = tolower(v) }
			END { flush() }' "$f"
		done
		for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
			[[ -f $f ]] || continue
			# deb [options] URI SUITE COMPONENT...
			sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" |
				awk '$1 == "deb" && NF >= 4 { for (i = 4; i <= NF; i++) if ($i == "main") { print $2, $3; break } }'
		done
	} | awk -v c="$codename" '$2 == c || $2 == c "-updates" || $2 == c "-security" { print "deb " $1 " " $2 " main" }' |
		awk '!seen[$0]++'
}

# mmdebstrap_clean ARGS...: mmdebstrap with no descriptor open but 0, 1 and
# 2. Its apt hooks run "cat >&N" in dash, which takes no N above 9, and N is
# the first descriptor free: what a caller leaves open (a lock, one that a
# CI runner or ctest passes down) pushes it to 10 or 11, and apt fails with
# "Bad fd number".
mmdebstrap_clean() {
	(
		local fd
		for fd in /proc/"$BASHPID"/fd/*; do
			fd=${fd##*/}
			((fd > 2)) && eval "exec $fd>&-" 2>/dev/null
		done
		exec mmdebstrap "$@"
	)
}
