/* SPDX-License-Identifier: GPL-2.0 */
#ifndef DWARF_REC_H
#define DWARF_REC_H

void dwarf_rec_mid(unsigned long n);
void dwarf_rec_leaf_a(unsigned long n);
void dwarf_rec_leaf_b(unsigned long n);
extern volatile unsigned long dwarf_rec_sink;

#endif
