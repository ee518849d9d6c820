/* SPDX-License-Identifier: GPL-2.0 */
/* bench/dwarf-rec-treelib.c, the shared library of bench/dwarf-rec-tree.c */
#ifndef DWARF_REC_TREE_H
#define DWARF_REC_TREE_H

unsigned long tree_recurse(unsigned int depth, unsigned int r);
unsigned long tree_sort(unsigned int n, unsigned int r);
unsigned long tree_format(unsigned int n, unsigned int r);
unsigned long tree_buffers(unsigned int n, unsigned int r);

#endif
