/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recorder (recorder.c): one recording, for record and for sweep's runs. */
#ifndef RECLAIMCTL_RECORD_H
#define RECLAIMCTL_RECORD_H

#include <stdbool.h>

#include "reclaimctl.h"

struct record_run {
	/* in */
	double interval;
	double duration;	  /* 0: no limit (with a command: it is ended then) */
	const char *output;	  /* the record file; "-": standard output */
	char **command;		  /* NULL-terminated */
	int command_output;	  /* the command's stdout and stderr go there; -1: reclaimctl's */
	void (*tick)(void *data); /* after each sample, or NULL */
	void *tick_data;
	/* a SIGINT is sent on to the command (a terminal's Ctrl-C reaches it anyway) */
	bool forward_sigint;
	/* out */
	bool reaped; /* the command ended and its status is known */
	int status;  /* of waitpid() */
	double wall_seconds;
	long samples;
};

/*
 * Records into @run->output, with @run->command if any, until the duration
 * ends, the command ends or a signal caught by record_catch_signals() comes
 * (forwarded to the command; SIGINT only with forward_sigint). 0 or an exit
 * status (the error printed).
 */
int record_run(struct cli *cli, struct record_run *run);
/* SIGINT, SIGTERM and SIGHUP end a recording (and are noted), SIGCHLD wakes it. */
void record_catch_signals(void);
void record_restore_signals(void);
/* The signal caught, or 0. */
int record_signal(void);

#endif
