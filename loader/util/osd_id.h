/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_OSD_ID_H
#define OSDHIST_OSD_ID_H

/*
 * The names osdhist gives where no OSD id can be given.  An OSD is a key
 * >= 0 (clusters.h: its cluster and its id); these are all negative, so
 * `osd >= 0` asks "a real OSD?" and clusters.h's key functions pass them
 * through unchanged.  One header in the base layer, because the value is
 * born in loader/ceph/procs.c (a command line with no id), decided in
 * proctable.c and read by the snapshot and every renderer.
 */

/* The series of ops that no OSD id names, kept apart so that neither
 * hides in the other or in an OSD's: a process osdhist could not identify
 * (no id on its command line, or gone before a scan saw it), and a traced
 * process that claims an id another traced process holds (health
 * duplicate_ids).  Never merged into the holder's series: anyone can start
 * a process named ceph-osd with any id, and its ops must not pass for the
 * real OSD's. */
#define OSD_UNKNOWN	(-1)
#define OSD_DUPLICATE	(-3)
/* No OSD at all: not a ceph-osd process (yet), or, in a renderer's walk
 * by OSD, none met so far.  Never a series. */
#define OSD_NONE	(-2)
/* ... and, in no series, a process whose id another live process holds,
 * not yet decided (proctable.h): its keys stay in the maps, its ops are
 * counted in health (held_ops) until it is. */
#define OSD_HELD	(-4)

#endif
