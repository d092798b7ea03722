// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /etc/reclaimctl/reclaimctl.conf, the boot unit's configuration: a preset
 * name comes out as a plain name (reclaim_preset_load() takes it), or the
 * file is refused with its line on one line of message.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reclaim_preset *p = NULL;
	struct reclaim_ctx *ctx;
	char *name = NULL;
	int r;

	fuzz_root();
	fuzz_write("/etc/reclaimctl/reclaimctl.conf", (const char *)data, size, 0644);
	ctx = fuzz_ctx();
	r = reclaim_boot_preset(ctx, &name);
	fuzz_check_error(ctx, r);
	if (r >= 0 && name) {
		r = reclaim_preset_load(ctx, name, &p);
		fuzz_check(r != -EINVAL, "\"%s\" is not a preset name", name);
		reclaim_preset_unref(p);
	}
	free(name);
	reclaim_unref(ctx);
	return 0;
}
