// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SVG line charts for reclaimctl report: plain elements only (no script),
 * one <polyline> per series with its point count in data-points, knob
 * changes as dashed vertical lines.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define LEFT   64
#define RIGHT  16
#define WIDTH  (LEFT + CHART_COLUMNS + RIGHT)
#define HEIGHT 240
#define TOP    40
#define BOTTOM 36

static const char *const colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
				     "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

void html_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

/* 1, 2 or 5 times a power of ten, at least @v. */
static double nice_ceiling(double v)
{
	double e, f;

	if (!(v > 0))
		return 1;
	e = pow(10, floor(log10(v)));
	f = v / e;
	if (f <= 1.0001)
		return e;
	if (f <= 2.0001)
		return 2 * e;
	if (f <= 5.0001)
		return 5 * e;
	return 10 * e;
}

static void format_tick(char *buf, size_t size, double v)
{
	if (v >= 1e9)
		snprintf(buf, size, "%gG", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, size, "%gM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, size, "%gk", v / 1e3);
	else
		snprintf(buf, size, "%g", v);
}

struct frame {
	double tmax, vmax;
};

static double xpos(const struct frame *f, double t)
{
	return LEFT + (WIDTH - LEFT - RIGHT) * (t / f->tmax);
}

static double ypos(const struct frame *f, double v)
{
	if (v > f->vmax)
		v = f->vmax;
	return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * (v / f->vmax);
}

static void axes(FILE *out, const struct frame *f, const struct chart *chart)
{
	char buf[32];
	double step;

	fprintf(out, "<rect class=\"plot\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", LEFT,
		TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
	for (int i = 0; i <= 4; i++) {
		double v = f->vmax * i / 4, y = ypos(f, v);

		format_tick(buf, sizeof(buf), v);
		fprintf(out,
			"<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
			"<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			LEFT, y, WIDTH - RIGHT, y, LEFT - 6, y + 4, buf);
	}
	step = nice_ceiling(f->tmax / 6);
	for (double t = 0; t <= f->tmax * 1.0001; t += step) {
		double x = xpos(f, t);

		fprintf(
		    out,
		    "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
		    "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%gs</text>\n",
		    x, TOP, x, HEIGHT - BOTTOM, x, HEIGHT - BOTTOM + 16, t);
	}
	fprintf(out, "<text class=\"unit\" x=\"%d\" y=\"%d\">", 4, TOP - 3);
	html_text(out, chart->unit);
	fprintf(out,
		"</text>\n<text class=\"unit\" x=\"%d\" y=\"%d\" text-anchor=\"end\">time "
		"(s)</text>\n",
		WIDTH - RIGHT, HEIGHT - 4);
}

static void events(FILE *out, const struct frame *f, const struct run *run)
{
	for (size_t i = 0; i < run->nevents; i++) {
		double x = xpos(f, run->events[i].t);

		fprintf(out,
			"<g class=\"event\"><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
			"<text x=\"%.1f\" y=\"%d\">",
			x, TOP, x, HEIGHT - BOTTOM, x + 3, TOP + 12 + 12 * (int)(i % 3));
		html_text(out, run->events[i].label);
		fputs("</text><title>", out);
		html_text(out, run->events[i].label);
		fprintf(out, " at %.1f s</title></g>\n", run->events[i].t);
	}
}

/* The series as drawn; the number of its points. */
static size_t polyline(FILE *out, const struct frame *f, const struct series *s, size_t idx)
{
	const char *color = colors[idx % (sizeof(colors) / sizeof(colors[0]))];
	struct point *p;
	size_t n = series_points(s, f->tmax, &p);

	fprintf(out, "<polyline class=\"series\" data-series=\"");
	html_text(out, s->name);
	fprintf(out, "\" data-points=\"%zu\" stroke=\"%s\" points=\"", n, color);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%.1f,%.1f", i ? " " : "", xpos(f, p[i].t), ypos(f, p[i].v));
	fputs("\"><title>", out);
	html_text(out, s->name);
	fputs("</title></polyline>\n", out);
	if (n == 1)
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
			xpos(f, p[0].t), ypos(f, p[0].v), color);
	free(p);
	return n;
}

/* One row of swatches and names, wrapped to a second (and third) row when full. */
static void legend(FILE *out, const struct chart *chart, const struct series *s, size_t n)
{
	int x = LEFT + 8, y = 6;

	for (size_t i = 0; i < n; i++) {
		const char *name = s[i].name;
		const char *color = colors[i % (sizeof(colors) / sizeof(colors[0]))];
		int w;

		for (int k = 0; !chart->threads && k < 2; k++)
			if (strcmp(reclaim_figure_text(chart->figures[k], RECLAIM_FIGURE_KEY),
				   name) == 0)
				name = chart->names[k];
		w = 24 + 7 * (int)strlen(name);
		if (x + w > WIDTH - RIGHT && x > LEFT + 8) {
			x = LEFT + 8;
			y += 13;
		}
		fprintf(out,
			"<g class=\"legend\"><rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" "
			"fill=\"%s\"/><text x=\"%d\" y=\"%d\">",
			x, y, color, x + 14, y + 9);
		html_text(out, name);
		fputs("</text></g>\n", out);
		x += w;
	}
}

void svg_chart(FILE *out, const struct chart *chart, const struct run *run, size_t run_idx,
	       double tmax, double vmax)
{
	struct frame f = {tmax > 0 ? tmax : 1, nice_ceiling(vmax)};
	const struct plot *plot = run_plot(run, chart);
	size_t points = 0;

	fprintf(out,
		"<svg class=\"chart\" data-chart=\"%s\" data-run=\"%zu\" viewBox=\"0 0 %d %d\" "
		"width=\"%d\" height=\"%d\" role=\"img\">\n<title>",
		chart->id, run_idx, WIDTH, HEIGHT, WIDTH, HEIGHT);
	html_text(out, chart->title);
	fputs("</title>\n", out);
	axes(out, &f, chart);
	events(out, &f, run);
	for (size_t i = 0; i < plot->n; i++)
		points += polyline(out, &f, &plot->s[i], i);
	if (!points)
		fprintf(out,
			"<text class=\"nodata\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">no data "
			"recorded%s%s%s</text>\n",
			(WIDTH + LEFT - RIGHT) / 2, HEIGHT / 2, chart->how ? " (" : "",
			chart->how ? chart->how : "", chart->how ? ")" : "");
	legend(out, chart, plot->s, plot->n);
	fputs("</svg>\n", out);
}
