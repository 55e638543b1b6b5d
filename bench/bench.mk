# bench/: `make bench` runs the benchmark harness on the GPU host and writes
# CSV and PNG plots into bench-out/ (needs a GPU; not part of make check).
# The programs themselves are built by tests/gpu_tests.mk and
# kernels/kernels.mk (CUDA) and tests/tests.mk (declined-call overhead).
# (outside any condition: a tarball made without CUDA must still carry them)
EXTRA_DIST += bench/plot.sh bench/run_bench.sh bench/NOTES.md bench/before_after.py bench/chooser_table.py \
	bench/sddmm_tc_plot.py \
	bench/bench_median.h bench/cusparselt_bench.cu bench/cusparselt_bench_util.cuh

BENCH_OUT = bench-out
if HAVE_CUDA
bench: all bench/spmm_bench bench/kernels_bench bench/decline_overhead
	@mkdir -p $(BENCH_OUT)
	sh $(srcdir)/bench/run_bench.sh . $(BENCH_OUT) $(BENCH_ARGS)
	./bench/kernels_bench --csv $(BENCH_OUT)/kernels_bench.csv $(KBENCH_ARGS) | tee $(BENCH_OUT)/kernels_bench.log
	./bench/decline_overhead | tee $(BENCH_OUT)/decline_overhead.log
	sh $(srcdir)/bench/plot.sh $(BENCH_OUT)/spmm_bench.csv $(BENCH_OUT)/kernels_bench.csv $(BENCH_OUT)
else
bench:
	@echo "make bench needs the CUDA backend (configure found no nvcc/cuSPARSE) and a GPU"; exit 1
endif
.PHONY: bench

# chain_bench: a plain GraphBLAS program (like the examples): a chain of
# GrB_mxm, each output the next input (results kept on the device or not)
noinst_PROGRAMS += bench/chain_bench
bench_chain_bench_SOURCES = bench/chain_bench.c $(examples_common_src)
bench_chain_bench_LDADD = $(examples_libs)
