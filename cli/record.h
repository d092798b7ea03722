/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One recording of reclaimctl record, for the commands that record runs (sweep). */
#ifndef RECLAIMCTL_RECORD_H
#define RECLAIMCTL_RECORD_H

#include <stdbool.h>

#include "reclaimctl.h"

struct record_run {
	/* in */
	double interval;
	const char *output;	  /* the record file */
	char **command;		  /* NULL-terminated */
	int command_output;	  /* the command's stdout and stderr go there; -1: reclaimctl's */
	void (*tick)(void *data); /* after each sample, or NULL */
	void *tick_data;
	/* out */
	bool reaped; /* the command ended and its status is known */
	int status;  /* of waitpid() */
	double wall_seconds;
	long samples;
};

/*
 * Records @run->command into @run->output as 'record -o FILE -- COMMAND'
 * does, until the command ends or a signal caught by record_catch_signals()
 * comes (forwarded to the command, SIGINT too). 0 or an exit status (the
 * error printed).
 */
int record_run(struct cli *cli, struct record_run *run);
/* SIGINT, SIGTERM and SIGHUP end a recording (and are noted), SIGCHLD wakes it. */
void record_catch_signals(void);
void record_restore_signals(void);
/* The signal caught, or 0. */
int record_signal(void);

#endif
