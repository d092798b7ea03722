/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recorder (recorder.c): one recording, for record and for sweep's runs. */
#ifndef RECLAIMCTL_RECORD_H
#define RECLAIMCTL_RECORD_H

#include <stdbool.h>
#include <sys/types.h>

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
	/* the command in a process group of its own (see record_child_setup()) */
	bool own_group;
	/* also how long reclaim made tasks wait (RECLAIM_SAMPLER_LATENCY) */
	bool latency;
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

/* How long a command has to end after it was sent a signal, before SIGKILL. */
#define RECORD_GRACE_SECONDS 10
/*
 * In the child, before exec: default signal dispositions; with @own_group a
 * process group of its own and /dev/null as standard input, so that signals
 * reach it through reclaimctl and SIGKILL can end all of it.
 */
void record_child_setup(bool own_group);
/*
 * Waits for the command @pid (a group leader if @group). With @sig >= 0,
 * @sig is sent at once (0: nothing is sent) and the grace starts; with -1,
 * a signal caught meanwhile is passed on and starts it. The command has
 * RECORD_GRACE_SECONDS of grace, or until another signal comes, to end;
 * then it (its group) gets SIGKILL. 0 or -errno.
 */
int record_wait(pid_t pid, bool group, int sig, int *status);

#endif
