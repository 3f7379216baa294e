/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_VERSION_H
#define OSDHIST_VERSION_H

#define OSDHIST_VERSION "0.1"

#endif
