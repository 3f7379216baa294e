// SPDX-License-Identifier: GPL-2.0
/*
 * bench/first_touch.c: what the kernel's first read of a user page costs
 * on this machine, against its second read of the same page.
 *
 *   cc -O2 -o /tmp/first_touch bench/first_touch.c
 *   /tmp/first_touch [PAGES] [ROUNDS]        (defaults 20000 and 5)
 *
 * osdhist's BPF programs read the OSD's memory from the kernel
 * (bpf_probe_read_user: copy_from_user_nofault).  Where the hypervisor
 * keeps shadow page tables (this VM: "Hypervisor detected: PVM" and
 * pti=on in dmesg), a user page the kernel has not touched since it was
 * mapped costs the kernel a trip to the hypervisor on its first read; on
 * hardware paging (bare metal, EPT/NPT guests) it costs a TLB miss.  The
 * OSD's heap keeps giving pages back and taking new ones (glibc's malloc:
 * sysmalloc and mprotect in a profile of a loaded OSD), so fresh pages
 * are common where osdhist reads the op vector.
 *
 * Each round maps PAGES new pages, writes a byte of each from user space,
 * then has the kernel read 64 bytes of each twice, through write(2) to a
 * pipe (copy_from_user, the same kernel-mode access of a user address),
 * draining the pipe after each.  Prints per round the ns per write+read
 * pair for the first and the second pass; their difference is the first
 * touch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static long long ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The kernel reads 64 bytes of each page; ns per page. */
static long long kernel_reads(int fd[2], char *m, long pages)
{
	char sink[64];
	long long t0 = ns();

	for (long i = 0; i < pages; i++) {
		if (write(fd[1], m + i * 4096, sizeof(sink)) != sizeof(sink) ||
		    read(fd[0], sink, sizeof(sink)) != sizeof(sink)) {
			perror("first_touch: pipe");
			exit(1);
		}
	}
	return (ns() - t0) / pages;
}

int main(int argc, char **argv)
{
	long pages = argc > 1 ? atol(argv[1]) : 20000;
	int rounds = argc > 2 ? atoi(argv[2]) : 5;
	long long first = 0, second = 0;
	int fd[2];

	if (pages < 1 || rounds < 1) {
		fprintf(stderr, "usage: first_touch [PAGES] [ROUNDS] (positive integers)\n");
		return 2;
	}
	if (pipe(fd)) {
		perror("first_touch: pipe");
		return 1;
	}
	printf("round  first read ns  second read ns  first touch ns\n");
	for (int r = 0; r < rounds; r++) {
		char *m = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		long long a, b;

		if (m == MAP_FAILED) {
			perror("first_touch: mmap");
			return 1;
		}
		for (long i = 0; i < pages; i++)
			m[i * 4096] = 1;
		a = kernel_reads(fd, m, pages);
		b = kernel_reads(fd, m, pages);
		printf("%5d  %13lld  %14lld  %14lld\n", r + 1, a, b, a - b);
		first += a;
		second += b;
		munmap(m, pages * 4096);
	}
	printf("mean   %13lld  %14lld  %14lld  (%ld pages a round)\n",
	       first / rounds, second / rounds, (first - second) / rounds, pages);
	return 0;
}
