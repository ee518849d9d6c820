// SPDX-License-Identifier: GPL-2.0
/*
 * DSOs: one object per mapped path, found through a hash of long names, with
 * its symbols loaded on first use and cached for the rest of the session.
 *
 * Symbol files are looked for where perf 6.1 looks (dso.c binary types, in
 * that order): the .gnu_debuglink target, perf's build-id cache
 * ($HOME/.debug/.build-id/xx/rest/{elf,debug}), /usr/lib/debug/PATH.debug,
 * /usr/lib/debug/PATH, /usr/lib/debug/.build-id/xx/rest.debug, the path
 * itself, DIR/.debug/NAME and /usr/lib/debug/lib/X for /usr/lib/X. The
 * first file with a .symtab gives the symbols, the first with a .dynsym
 * gives the program headers; when only one kind exists it does both.
 *
 * A DSO without a recorded build-id (pipe mode, no BUILD_ID feature, a DSO
 * no sample hit at record time) takes the one of the file on disk, as perf
 * does, so that the build-id paths are tried too. A candidate whose
 * build-id differs from the DSO's is skipped.
 *
 * With a symfs root (--symfs DIR) the candidates are those paths under DIR
 * where perf's dso__read_binary_type_filename() joins them (the file, its
 * debuglink directory, DIR/usr/lib/debug/...), the build-id cache is the
 * caller's (perf: DIR/.debug), and no symbols of this machine's kernel or
 * vDSO are used.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pulse/build-id.h>
#include <pulse/symbols.h>
#include "core/internal.h"
#include "elf-int.h"
#include "symtab-int.h"
#include "core/hash.h"

static char *dup_opt(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* perf's symbol__init(): a symfs of "/" is no symfs. */
static char *dup_symfs(const char *dir)
{
	char *real;
	bool root;

	if (!dir || !dir[0])
		return NULL;
	real = realpath(dir, NULL);
	root = real && !strcmp(real, "/");
	free(real);
	return root ? NULL : strdup(dir);
}

int pulse_dsos__init(struct pulse_dsos *dsos, const struct pulse_symbol_opts *opts)
{
	memset(dsos, 0, sizeof(*dsos));
	dsos->nr_buckets = 256;
	dsos->buckets = calloc(dsos->nr_buckets, sizeof(*dsos->buckets));
	if (!dsos->buckets)
		return -ENOMEM;
	dsos->opts.sz = sizeof(dsos->opts);
	if (opts) {
		dsos->opts.kallsyms = dup_opt(opts->kallsyms);
		dsos->opts.debug_dir = dup_opt(opts->debug_dir);
		dsos->opts.buildid_dir = dup_opt(opts->buildid_dir);
		dsos->opts.no_vdso = opts->no_vdso;
		/* fields a caller built against an older header does not have */
		if (opts->sz >= offsetof(struct pulse_symbol_opts, kallsyms_given) +
				sizeof(opts->kallsyms_given)) {
			dsos->opts.vmlinux = dup_opt(opts->vmlinux);
			dsos->opts.kallsyms_given = opts->kallsyms_given;
		}
		if (opts->sz >= offsetof(struct pulse_symbol_opts, symfs) + sizeof(opts->symfs))
			dsos->opts.symfs = dup_symfs(opts->symfs);
		if (opts->sz >= offsetof(struct pulse_symbol_opts, no_symbols) +
				sizeof(opts->no_symbols))
			dsos->opts.no_symbols = opts->no_symbols;
		if (opts->sz >= offsetof(struct pulse_symbol_opts, no_demangle) +
				sizeof(opts->no_demangle))
			dsos->opts.no_demangle = opts->no_demangle;
		if (opts->sz >= offsetof(struct pulse_symbol_opts, demangle_full) +
				sizeof(opts->demangle_full))
			dsos->opts.demangle_full = opts->demangle_full;
	}
	return 0;
}

static void dso__delete(struct pulse_dso *dso)
{
	pulse_symtab__exit(&dso->symtab);
	free(dso->long_name);
	free(dso->short_name);
	free(dso);
}

void pulse_dsos__exit(struct pulse_dsos *dsos)
{
	struct pulse_dso *d = dsos->first;

	pulse_dsos__drop_preload(dsos);
	while (d) {
		struct pulse_dso *next = d->order_next;

		dso__delete(d);
		d = next;
	}
	free(dsos->buckets);
	free((char *)dsos->opts.kallsyms);
	free((char *)dsos->opts.debug_dir);
	free((char *)dsos->opts.buildid_dir);
	free((char *)dsos->opts.vmlinux);
	free((char *)dsos->opts.symfs);
	memset(dsos, 0, sizeof(*dsos));
}

struct pulse_dso *pulse_dsos__find(const struct pulse_dsos *dsos, const char *long_name)
{
	struct pulse_dso *d = dsos->buckets[pulse_fnv1a_str(long_name) & (dsos->nr_buckets - 1)];

	for (; d; d = d->next)
		if (!strcmp(d->long_name, long_name))
			return d;
	return NULL;
}

static void dsos__grow(struct pulse_dsos *dsos)
{
	size_t n = dsos->nr_buckets * 2;
	struct pulse_dso **b = calloc(n, sizeof(*b));

	if (!b)
		return;
	for (size_t i = 0; i < dsos->nr_buckets; i++) {
		struct pulse_dso *d = dsos->buckets[i];

		while (d) {
			struct pulse_dso *next = d->next;
			size_t h = pulse_fnv1a_str(d->long_name) & (n - 1);

			d->next = b[h];
			b[h] = d;
			d = next;
		}
	}
	free(dsos->buckets);
	dsos->buckets = b;
	dsos->nr_buckets = n;
}

/* perf's dso__set_basename(): JIT maps are named after their process. */
static char *short_name_of(const char *long_name)
{
	const char *slash;
	char *s;
	int pid;

	if (sscanf(long_name, "/tmp/perf-%d.map", &pid) == 1) {
		if (asprintf(&s, "[JIT] tid %d", pid) < 0)
			return NULL;
		return s;
	}
	slash = strrchr(long_name, '/');
	return strdup(slash ? slash + 1 : long_name);
}

struct pulse_dso *pulse_dsos__findnew(struct pulse_dsos *dsos, const char *long_name,
				      enum pulse_dso_kind kind)
{
	struct pulse_dso *d = pulse_dsos__find(dsos, long_name);
	size_t h;

	if (d)
		return d;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->long_name = strdup(long_name);
	if (kind == PULSE_DSO_KERNEL || kind == PULSE_DSO_VDSO)
		d->short_name = strdup(long_name);
	else if (kind == PULSE_DSO_MODULE)
		d->short_name = pulse_kmod__name(long_name);
	else
		d->short_name = short_name_of(long_name);
	if (!d->long_name || !d->short_name) {
		dso__delete(d);
		return NULL;
	}
	d->short_name_len = strlen(d->short_name);
	d->short_name_hash = pulse_fnv1a_str(d->short_name);
	d->kind = kind;
	pulse_symtab__init(&d->symtab);
	d->symtab.no_demangle = dsos->opts.no_demangle;
	d->symtab.demangle_full = dsos->opts.demangle_full;
	if (dsos->nr >= dsos->nr_buckets)
		dsos__grow(dsos);
	h = pulse_fnv1a_str(long_name) & (dsos->nr_buckets - 1);
	d->next = dsos->buckets[h];
	dsos->buckets[h] = d;
	if (dsos->last)
		dsos->last->order_next = d;
	else
		dsos->first = d;
	dsos->last = d;
	dsos->nr++;
	return d;
}

int pulse_dsos__set_build_id(struct pulse_dsos *dsos, const char *long_name,
			     enum pulse_dso_kind kind, const uint8_t *id, size_t size)
{
	struct pulse_dso *d = pulse_dsos__findnew(dsos, long_name, kind);

	if (!d)
		return -ENOMEM;
	if (size > sizeof(d->build_id))
		size = sizeof(d->build_id);
	memcpy(d->build_id, id, size);
	d->build_id_size = size;
	d->has_build_id = size > 0;
	return 0;
}

/* ---- finding the symbol files ------------------------------------------- */

struct elf_probe {
	bool ok;		/* an ELF file we may use */
	bool symtab;		/* has a real .symtab */
	bool dynsym;		/* has a real .dynsym */
};

static bool is_regular(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/*
 * perf's dso__build_id_equal(): a recorded id of the full 20 bytes may be
 * a shorter one padded with zeroes (old perf.data files).
 */
static bool build_id_equal(const struct pulse_dso *dso, const uint8_t *id, int size)
{
	if (size <= 0)
		return false;
	if (dso->build_id_size > size && dso->build_id_size == sizeof(dso->build_id)) {
		if (memcmp(dso->build_id, id, size))
			return false;
		for (int i = size; i < dso->build_id_size; i++)
			if (dso->build_id[i])
				return false;
		return true;
	}
	return dso->build_id_size == size && !memcmp(dso->build_id, id, size);
}

/* The GNU build-id of the ELF file @path: its length, or -errno. */
static int file_build_id(const char *path, uint8_t id[PULSE_BUILD_ID_SIZE])
{
	size_t len;
	int err = pulse_build_id__read_file(path, id, &len);

	return err ? err : (int)len;
}

static struct elf_probe probe(const struct pulse_dso *dso, const char *path)
{
	struct elf_probe p = { 0 };
	Elf_Scn *scn = NULL;
	struct pulse_elf e;
	GElf_Shdr shdr;

	if (!is_regular(path))
		return p;
	if (dso->has_build_id) {
		uint8_t id[20];
		int n = file_build_id(path, id);

		if (!build_id_equal(dso, id, n)) {
			pr_debug("symbols: %s: build-id mismatch, skipped\n", path);
			return p;
		}
	}
	if (pulse_elf__open(&e, path))
		return p;
	p.ok = true;
	while ((scn = elf_nextscn(e.elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &shdr))
			continue;
		if (shdr.sh_type == SHT_SYMTAB)
			p.symtab = true;
		else if (shdr.sh_type == SHT_DYNSYM)
			p.dynsym = true;
	}
	pulse_elf__close(&e);
	return p;
}

static int read_debuglink(const char *path, char *out, size_t size)
{
	struct pulse_elf e;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf_Data *data;
	int ret;

	ret = pulse_elf__open(&e, path);
	if (ret)
		return ret == -ENOEXEC ? -ENOENT : ret;
	ret = -ENOENT;
	scn = pulse_elf__section(e.elf, ".gnu_debuglink", &shdr, NULL);
	data = scn ? elf_getdata(scn, NULL) : NULL;
	if (data && data->d_size && memchr(data->d_buf, '\0', data->d_size)) {
		snprintf(out, size, "%s", (const char *)data->d_buf);
		ret = 0;
	}
	pulse_elf__close(&e);
	return ret;
}

static void build_id_hex(const struct pulse_dso *dso, char *hex)
{
	for (int i = 0; i < dso->build_id_size; i++)
		sprintf(hex + 2 * i, "%02x", dso->build_id[i]);
	hex[2 * dso->build_id_size] = '\0';
}

struct candidates {
	char syms[PATH_MAX * 2 + 64];	/* first with .symtab */
	char run[PATH_MAX * 2 + 64];	/* first with .dynsym */
};

static void consider(const struct pulse_dso *dso, struct candidates *c, const char *path)
{
	struct elf_probe p;

	if (c->syms[0] && c->run[0])
		return;
	p = probe(dso, path);
	if (!p.ok)
		return;
	if (!c->syms[0] && p.symtab)
		snprintf(c->syms, sizeof(c->syms), "%s", path);
	if (!c->run[0] && p.dynsym)
		snprintf(c->run, sizeof(c->run), "%s", path);
}

/*
 * perf's __symbol__join_symfs() (path__join): @path under the symfs root,
 * "DIR/" + path, or @path itself without a root.
 */
static void join_symfs(const struct pulse_symbol_opts *o, char *buf, size_t size,
		       const char *path)
{
	const char *root = o->symfs ? o->symfs : "";

	snprintf(buf, size, "%s%s%s", root, root[0] ? "/" : "", path);
}

/*
 * The binary at the recorded path (under the symfs root, if any) was
 * rebuilt or upgraded since the recording: its symbols would name the wrong
 * functions, so it is skipped (see probe()), and the user is told, once per
 * DSO since a DSO is loaded once. perf 6.1 skips it silently, leaving bare
 * addresses unexplained.
 */
static void dso__check_on_disk(const struct pulse_dso *dso, const char *path)
{
	char want[41], have[41];
	uint8_t id[20];
	int n;

	if (!is_regular(path))
		return;
	n = file_build_id(path, id);
	if (n <= 0 || build_id_equal(dso, id, n))
		return;
	build_id_hex(dso, want);
	pulse_build_id__hex(id, n, have, sizeof(have));
	pr_warn("%s on disk is not the recorded binary (build-id %s, recorded %s): "
		"its symbols are not used\n", path, have, want);
}

static int dso__load_user(struct pulse_dsos *dsos, struct pulse_dso *dso)
{
	const struct pulse_symbol_opts *o = &dsos->opts;
	char path[PATH_MAX * 2 + 64], link[PATH_MAX], dir[PATH_MAX], hex[41];
	char file[PATH_MAX], debug[PATH_MAX] = "";
	struct candidates c = { "", "" };
	const char *slash;

	elf_version(EV_CURRENT);
	/* the file as mapped, under the symfs root; its debug dirs likewise */
	join_symfs(o, file, sizeof(file), dso->long_name);
	if (o->debug_dir)
		join_symfs(o, debug, sizeof(debug), o->debug_dir);
	/*
	 * perf's dso__load(): without a recorded build-id (pipe mode, a file
	 * without the BUILD_ID feature, a DSO no sample hit at record time)
	 * the one of the file on disk is taken, so that the build-id debug
	 * file can be found and the other candidates checked against it.
	 * perf 6.1 asks whether the recorded path is a file on this machine,
	 * then reads the one under the symfs root: so does pulse.
	 */
	if (!dso->has_build_id) {
		unsigned char id[PULSE_BUILD_ID_SIZE];
		size_t len = 0;

		if (is_regular(dso->long_name) && is_regular(file) &&
		    !pulse_build_id__read_file(file, id, &len) && len) {
			memcpy(dso->build_id, id, len);
			dso->build_id_size = len;
			dso->has_build_id = true;
		}
	} else {
		dso__check_on_disk(dso, file);
	}

	/*
	 * DEBUGLINK: the first of perf's debuglink_paths that is a file, next
	 * to the file under the symfs root (the last one is perf's fixed
	 * /usr/lib/debug prefix before that directory, not joined).
	 */
	slash = strrchr(file, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - file) : 0, file);
	if (is_regular(file) && !read_debuglink(file, link, sizeof(link))) {
		for (int i = 0; i < 4; i++) {
			if (i == 0)
				snprintf(path, sizeof(path), "%s", link);
			else if (i == 1)
				snprintf(path, sizeof(path), "%s/%s", dir, link);
			else if (i == 2)
				snprintf(path, sizeof(path), "%s/.debug/%s", dir, link);
			else if (o->debug_dir)
				snprintf(path, sizeof(path), "%s%s/%s", o->debug_dir, dir, link);
			else
				break;
			if (is_regular(path)) {
				consider(dso, &c, path);
				break;
			}
		}
	}
	build_id_hex(dso, hex);
	/* BUILD_ID_CACHE, BUILD_ID_CACHE_DEBUGINFO: an old cache links the file itself */
	if (dso->has_build_id && o->buildid_dir) {
		snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s", o->buildid_dir, hex, hex + 2);
		if (is_regular(path)) {
			consider(dso, &c, path);
		} else {
			size_t n = strlen(path);

			snprintf(path + n, sizeof(path) - n, "/elf");
			consider(dso, &c, path);
			snprintf(path + n, sizeof(path) - n, "/debug");
			consider(dso, &c, path);
		}
	}
	/* FEDORA_DEBUGINFO, UBUNTU_DEBUGINFO, BUILDID_DEBUGINFO */
	if (o->debug_dir) {
		snprintf(path, sizeof(path), "%s%s.debug", debug, dso->long_name);
		consider(dso, &c, path);
		snprintf(path, sizeof(path), "%s%s", debug, dso->long_name);
		consider(dso, &c, path);
		if (dso->has_build_id) {
			snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug", debug, hex,
				 hex + 2);
			consider(dso, &c, path);
		}
	}
	/* SYSTEM_PATH_DSO */
	consider(dso, &c, file);
	/* OPENEMBEDDED_DEBUGINFO: DIR/.debug/NAME */
	slash = strrchr(dso->long_name, '/');
	if (slash) {
		join_symfs(o, path, sizeof(path), "");
		snprintf(path + strlen(path), sizeof(path) - strlen(path), "%.*s/.debug%s",
			 (int)(slash - dso->long_name), dso->long_name, slash);
		consider(dso, &c, path);
	}
	/* MIXEDUP_UBUNTU_DEBUGINFO: /usr/lib/X as /usr/lib/debug/lib/X */
	if (o->debug_dir && !strncmp(dso->long_name, "/usr/lib/", 9)) {
		snprintf(path, sizeof(path), "%s%s", debug, dso->long_name + 4);
		consider(dso, &c, path);
	}
	if (!c.syms[0] && !c.run[0])
		return -ENOENT;
	return pulse_symtab__load_elf(&dso->symtab, c.syms[0] ? c.syms : c.run,
				      c.run[0] ? c.run : c.syms);
}

/* This process's vDSO image and its size; NULL when there is none. */
static const void *own_vdso(size_t *size)
{
	const unsigned char *base = (const void *)getauxval(AT_SYSINFO_EHDR);
	Elf64_Ehdr eh;

	if (!base)
		return NULL;
	memcpy(&eh, base, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	/* the section headers close the image */
	*size = eh.e_shoff + (size_t)eh.e_shnum * eh.e_shentsize;
	if (*size < sizeof(eh) || *size > (1 << 20))
		return NULL;
	return base;
}

/*
 * Is the recorded kernel the running one? With a recorded build-id, the
 * running kernel's must equal it. Without one (a pipe, an older perf), the
 * same release is not enough, as a rebuilt kernel keeps it: the running
 * kernel's text, where the recording's kernel MMAP put it, start and end,
 * is (KASLR moves it at each boot; a rebuilt kernel's _etext moves with its
 * code). When the running kernel's build-id cannot be read, nothing tells
 * them apart and the caller's OSRELEASE check stands.
 */
static bool kernel__is_running(const struct pulse_dsos *dsos, const struct pulse_dso *dso)
{
	unsigned char id[PULSE_BUILD_ID_SIZE];
	uint64_t start, end;
	size_t len = 0;

	if (pulse_build_id__read_kernel(id, &len) || !len)
		return true;
	if (dso->has_build_id)
		return build_id_equal(dso, id, len);
	if (!dso->has_text_range || !dsos->opts.kallsyms)
		return false;
	if (pulse_kallsyms__text_range(dsos->opts.kallsyms, &start, &end))
		return false;
	return start == dso->text_start && end == dso->text_end;
}

/* Worked out once per kernel map: the kernel, its vDSO and each module ask. */
static bool dso__is_running_kernel(const struct pulse_dsos *dsos, struct pulse_dso *dso)
{
	if (!dso->running_verdict)
		dso->running_verdict = kernel__is_running(dsos, dso) ? 1 : -1;
	return dso->running_verdict > 0;
}

/*
 * The vDSO comes with the kernel: this process's names a recorded [vdso]
 * only when its build-id is the recorded one or, with none recorded, when
 * the recorded kernel is the running one.
 */
static int dso__load_own_vdso(struct pulse_dsos *dsos, struct pulse_dso *dso)
{
	unsigned char id[PULSE_BUILD_ID_SIZE];
	struct pulse_dso *kernel;
	const void *image;
	size_t size, len = 0;

	image = own_vdso(&size);
	if (!image)
		return -ENOENT;
	if (dso->has_build_id) {
		if (pulse_build_id__read_mem(image, size, id, &len) ||
		    !build_id_equal(dso, id, len)) {
			pr_debug("symbols: [vdso] is not this machine's: not named\n");
			return -ENOENT;
		}
	} else {
		kernel = pulse_dsos__find(dsos, "[kernel.kallsyms]");
		if (!kernel || !dso__is_running_kernel(dsos, kernel)) {
			pr_debug("symbols: [vdso] of another kernel: not named\n");
			return -ENOENT;
		}
	}
	return pulse_symtab__load_elf_mem(&dso->symtab, image, size);
}

/*
 * perf's order: a vmlinux named with -k (checked against the recorded
 * build-id, else no symbols, as perf), then kallsyms: a file named with
 * --kallsyms as it is, /proc/kallsyms only for the kernel that made the
 * recording (the caller checks OSRELEASE, the build-id is checked here),
 * then the copy of its kallsyms perf record kept in the build-id cache.
 * Without any, kernel addresses stay unresolved, as perf prints them.
 * With a symfs root only the named files are used (perf's "do not try
 * local files if a symfs was given"), a relative -k path under the root.
 */
static int dso__load_kernel(struct pulse_dsos *dsos, struct pulse_dso *dso)
{
	const struct pulse_symbol_opts *o = &dsos->opts;
	char path[PATH_MAX], hex[41];

	if (o->vmlinux) {
		const char *vmlinux = o->vmlinux;
		uint8_t id[20];
		int n;

		if (vmlinux[0] != '/') {
			join_symfs(o, path, sizeof(path), vmlinux);
			vmlinux = path;
		}
		if (dso->has_build_id) {
			n = file_build_id(vmlinux, id);
			if (n > 0 && !build_id_equal(dso, id, n)) {
				build_id_hex(dso, hex);
				pr_warn("%s is not the recorded kernel (build-id %s): no kernel symbols\n",
					vmlinux, hex);
				return -ENOENT;
			}
		}
		return pulse_symtab__load_vmlinux(&dso->symtab, vmlinux);
	}
	if (o->kallsyms && o->kallsyms_given)
		return pulse_dsos__take_kallsyms(dsos, &dso->symtab, o->kallsyms);
	if (o->symfs)
		return -ENOENT;
	if (o->kallsyms && dso__is_running_kernel(dsos, dso))
		return pulse_dsos__take_kallsyms(dsos, &dso->symtab, o->kallsyms);
	if (o->kallsyms)
		pr_debug("symbols: the running kernel is not the recorded one: %s not used\n",
			 o->kallsyms);
	/* another kernel: perf record keeps a copy of its kallsyms by build-id */
	if (dso->has_build_id && o->buildid_dir) {
		build_id_hex(dso, hex);
		snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/%s/kallsyms", o->buildid_dir,
			 hex);
		return pulse_symtab__load_kallsyms(&dso->symtab, path);
	}
	return -ENOENT;
}

/*
 * A module's symbols come from kallsyms where the kernel's do (a file named
 * with --kallsyms, or the running kernel's when it is the recorded one),
 * else from its .ko, at the recorded path under the symfs root, when its
 * recorded build-id, if any, is the file's.
 */
static int dso__load_module(struct pulse_dsos *dsos, struct pulse_dso *dso)
{
	const struct pulse_symbol_opts *o = &dsos->opts;
	struct pulse_dso *kernel = pulse_dsos__find(dsos, "[kernel.kallsyms]");
	char path[PATH_MAX], mod[256], hex[41];
	size_t n = dso->short_name_len;
	uint8_t id[20];
	int ret = -ENOENT;

	if (o->kallsyms && n > 2 && n - 2 < sizeof(mod) && dso->short_name[0] == '[' &&
	    (o->kallsyms_given || (!o->symfs && kernel && dso__is_running_kernel(dsos, kernel)))) {
		memcpy(mod, dso->short_name + 1, n - 2);
		mod[n - 2] = '\0';
		ret = pulse_symtab__load_kallsyms_module(&dso->symtab, o->kallsyms, mod,
							 dso->text_start);
		if (ret > 0)
			return ret;
	}
	if (dso->long_name[0] != '/')
		return -ENOENT;
	join_symfs(o, path, sizeof(path), dso->long_name);
	if (dso->has_build_id) {
		int len = file_build_id(path, id);

		if (len <= 0)
			return -ENOENT;
		if (!build_id_equal(dso, id, len)) {
			build_id_hex(dso, hex);
			pr_warn("%s on disk is not the recorded module (build-id %s): its symbols are not used\n",
				path, hex);
			return -ENOENT;
		}
	}
	return pulse_symtab__load_kmodule(&dso->symtab, path, &dso->kmod_text_off);
}

int pulse_dso__load(struct pulse_dsos *dsos, struct pulse_dso *dso)
{
	char path[PATH_MAX], hex[41];
	int ret = -ENOENT;

	if (dso->loaded)
		return dso->symtab.nr;
	dso->loaded = true;
	if (dsos->opts.no_symbols)
		return 0;
	switch (dso->kind) {
	case PULSE_DSO_USER:
		ret = dso__load_user(dsos, dso);
		break;
	case PULSE_DSO_KERNEL:
		ret = dso__load_kernel(dsos, dso);
		break;
	case PULSE_DSO_VDSO:
		if (dso->has_build_id && dsos->opts.buildid_dir) {
			build_id_hex(dso, hex);
			snprintf(path, sizeof(path), "%s/[vdso]/%s/vdso", dsos->opts.buildid_dir, hex);
			ret = pulse_symtab__load_elf(&dso->symtab, path, NULL);
		}
		/* pulse's own: perf reads only the build-id cache's copy */
		if (ret < 0 && !dsos->opts.no_vdso && !dsos->opts.symfs)
			ret = dso__load_own_vdso(dsos, dso);
		break;
	case PULSE_DSO_PERF_MAP:
		ret = pulse_symtab__load_perf_map(&dso->symtab, dso->long_name);
		break;
	case PULSE_DSO_MODULE:
		ret = dso__load_module(dsos, dso);
		break;
	case PULSE_DSO_NOSYMS:
		ret = 0;
		break;
	}
	if (ret < 0)
		pr_debug("symbols: no symbols for %s: %s\n", dso->long_name, strerror(-ret));
	return ret;
}

const struct pulse_symbol *pulse_dso__find_symbol(struct pulse_dsos *dsos, struct pulse_dso *dso,
						  uint64_t addr)
{
	if (!dso->loaded)
		pulse_dso__load(dsos, dso);
	return pulse_symtab__find(&dso->symtab, addr);
}
