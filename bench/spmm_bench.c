//------------------------------------------------------------------------------
// bench/spmm_bench.c: the CUDA backend's SpMM / SpMV / SDDMM vs cuSPARSE vs CPU
//------------------------------------------------------------------------------

// Matrices: R-MAT (a=0.57, b=0.19, c=0.19, d=0.05, 16 edges per row before
// duplicates are removed; scales from --scales, default 18,20) and every
// *.mtx.gz under $GRBGPU_TEST_DATA (or --data DIR) that --real allows.
// For each matrix, FP32 and FP64, N in --ns (default 1,32,64,128,256):
//  (a) kernel: the backend's product (grbgpu_cuda_backend ()->spmm with S
//      and X cached on the device; cuSPARSE time from CUDA events, median of
//      --reps after warm-up) and the whole warm backend call (adds Y's
//      download), vs cusparseSpMM / cusparseSpMV called directly here with
//      each CSR algorithm (best reported);
//  (b) end to end: GrB_mxm / GrB_mxv through grbgpu (GRBGPU_DEVICE=cuda),
//      first call (conversion + upload) and warm, vs the CPU library
//      (grbgpu_set ("DEVICE", "cpu")) in the same run; only when built inside
//      the library's tree (GG_BENCH_E2E), since it needs the dispatcher;
//  (c) SDDMM: the backend vs cusparseSDDMM directly, K = N (N > 1), and our
//      group and batch schedules called directly (--sddmm-kernels: which;
//      each also timed back to back, as cusparseSDDMM is; "tcT" the
//      tensor-core SDDMM with threshold T, exact, "tcTt" in tf32, "tcTe3" /
//      "tcTe4" with the two-way split, its form built once per matrix);
//      --sddmm-only: (c) alone;
//  (d) vxm (w = A' u, N = 1 in --ns): the pull on a transposed CSR (what the
//      backend does: our kernel and cuSPARSE) vs the push from A's own CSR
//      with atomics (gg_cuda_spmv_push) and cuSPARSE's transposed SpMV, for
//      PLUS_TIMES and MIN_PLUS; and GrB_vxm end to end in (b).
//  (e) --split LIST: only FP32 PLUS_TIMES GrB_mxm / GrB_mxv end to end with
//      one slot and with GRBGPU_DEVICES=LIST (issue 18), in the same run; on
//      one GPU with LIST=0,0 it measures the overhead of splitting; with
//      --split-sddmm the FP32 PLUS_TIMES SDDMM C<A, structural> = L * R'
//      instead (L, R full, K = N columns; A's rows split); --split-reps R
//      warm calls per row (5); --split-only: the LIST row alone, checked by
//      blocks of rows (a product larger than one GPU: bench/spmm_bench_split.c).
// Every result is checked: (a) and (c) against a C reference on 512 sampled
// rows (and the backend against cuSPARSE everywhere), (b) against the CPU
// library's answer.  Prints a table; writes CSV (--csv FILE).
//
// Bandwidth is against the minimum bytes a product must move once: CSR
// arrays (p, i, x), X and Y (SpMM); p, i, y, A and B (SDDMM).

#include "config.h"

#include "bench/spmm_bench.h"

#ifdef GG_BENCH_E2E
// --fake-devices N (with --split 0,1): the module's test hook, ids 1 .. N-1
// stand for device 0, so a slot on "another device" runs on one GPU (X
// copied to it from the main device, forms recorded and freed there)
int gg_cuda_fake_devices (int n) ;     // backend/cuda/cuda_internal.h
#endif

//------------------------------------------------------------------------------
// options
//------------------------------------------------------------------------------

int scales [8] = { 18, 20 } ;
int nscales = 2 ;
int ns [8] = { 1, 32, 64, 128, 256 } ;
int nns = 5 ;
int reps = 20 ;
const char *data_dir = NULL ;
const char *real_filter = "" ;       // "" = none, "all", or a,b,c
const char *csv_path = "spmm_bench.csv" ;
bool do_e2e = true, do_sddmm = true, sddmm_only = false ;
const char *sddmm_kernels = "grp,w,w4" ;
FILE *csv ;
int failures = 0 ;

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

static void run_matrix (const gg_backend *b, cusparseHandle_t h, csr *A)
{
    printf ("# %s: %ld x %ld, %ld entries (%.1f per row)\n", A->name,
        (long) A->m, (long) A->k, (long) A->nnz, (double) A->nnz /
        (A->m ? A->m : 1)) ;
#ifdef GG_BENCH_E2E
    if (split_list != NULL) { bench_split (A) ; return ; }
#endif
    if (!sddmm_only) for (int f = 0 ; f < 2 ; f++) bench_kernel (b, h, A, f == 0) ;
    if (do_sddmm) for (int f = 0 ; f < 2 ; f++) bench_sddmm (b, h, A, f == 0) ;
    if (sddmm_only) return ;
    bool has_n1 = false ;
    for (int ni = 0 ; ni < nns ; ni++) has_n1 |= (ns [ni] == 1) ;
    if (has_n1) for (int f = 0 ; f < 2 ; f++) bench_vxm (h, A, f == 0) ;
#ifdef GG_BENCH_E2E
    if (do_e2e) for (int f = 0 ; f < 2 ; f++) bench_e2e (A, f == 0) ;
#endif
}

static bool wanted_real (const char *name)
{
    if (real_filter [0] == '\0') return false ;
    if (strcmp (real_filter, "all") == 0) return true ;
    char base [256] ;
    snprintf (base, sizeof (base), "%s", name) ;
    char *dot = strstr (base, ".mtx") ;
    if (dot) *dot = '\0' ;
    const char *s = real_filter ;
    size_t len = strlen (base) ;
    while (s && *s)
    {
        if (strncmp (s, base, len) == 0 && (s [len] == ',' || s [len] == '\0'))
            return true ;
        s = strchr (s, ',') ;
        if (s) s++ ;
    }
    return false ;
}

int main (int argc, char **argv)
{
    for (int a = 1 ; a < argc ; a++)
    {
        if (!strcmp (argv [a], "--scales") && a + 1 < argc)
            parse_list (argv [++a], scales, &nscales) ;
        else if (!strcmp (argv [a], "--ns") && a + 1 < argc)
            parse_list (argv [++a], ns, &nns) ;
        else if (!strcmp (argv [a], "--reps") && a + 1 < argc)
            reps = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--data") && a + 1 < argc)
            data_dir = argv [++a] ;
        else if (!strcmp (argv [a], "--real") && a + 1 < argc)
            real_filter = argv [++a] ;
        else if (!strcmp (argv [a], "--csv") && a + 1 < argc)
            csv_path = argv [++a] ;
        else if (!strcmp (argv [a], "--no-e2e")) do_e2e = false ;
#ifdef GG_BENCH_E2E
        else if (!strcmp (argv [a], "--split") && a + 1 < argc)
            split_list = argv [++a] ;
        else if (!strcmp (argv [a], "--split-sddmm")) split_sddmm = true ;
        else if (!strcmp (argv [a], "--split-reps") && a + 1 < argc)
            split_reps = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--split-only")) split_only = true ;
        else if (!strcmp (argv [a], "--fake-devices") && a + 1 < argc)
            gg_cuda_fake_devices (atoi (argv [++a])) ;
#endif
        else if (!strcmp (argv [a], "--no-sddmm")) do_sddmm = false ;
        else if (!strcmp (argv [a], "--sddmm-only")) sddmm_only = true ;
        else if (!strcmp (argv [a], "--sddmm-kernels") && a + 1 < argc)
            sddmm_kernels = argv [++a] ;
        else if (!strcmp (argv [a], "--no-rmat")) nscales = 0 ;
        else
        {
            fprintf (stderr, "usage: %s [--scales 18,20] [--ns 1,32,64,128,256]"
                " [--reps 20] [--real all|name,name] [--data DIR] [--csv FILE]"
                " [--no-e2e] [--no-sddmm] [--sddmm-only] [--sddmm-kernels grp,w,w4] [--no-rmat] [--split 0,0] [--split-sddmm] [--split-reps 5] [--split-only]"
                " [--fake-devices 2]\n", argv [0]) ;
            return 2 ;
        }
    }
    if (reps < 1) reps = 1 ;
    if (data_dir == NULL) data_dir = getenv ("GRBGPU_TEST_DATA") ;
    grbgpu_settings_init () ;
#ifdef GG_BENCH_E2E
    GRB_OK (GrB_init (GrB_NONBLOCKING)) ;
#endif
    const gg_backend *b = grbgpu_cuda_backend () ;
    if (b == NULL)
    {
        printf ("spmm_bench: no usable CUDA device\n") ;
        return 77 ;
    }
    struct cudaDeviceProp prop ;
    CHECK_CUDA (cudaGetDeviceProperties (&prop, grbgpu_settings.device_id)) ;
    CHECK_CUDA (cudaSetDevice (grbgpu_settings.device_id)) ;
    printf ("# device: %s, %d SMs; reps %d; exact precision\n", prop.name,
        prop.multiProcessorCount, reps) ;
    cusparseHandle_t h ;
    CHECK_SP (cusparseCreate (&h)) ;
    csv = fopen (csv_path, "w") ;
    if (!csv) { perror (csv_path) ; return 2 ; }
    fprintf (csv, "op,matrix,m,k,nnz,type,n,kernel_ms,cusparse_ms,"
        "cusparse_alg,call_warm_ms,call_first_ms,GBps,GFLOPps,h2d_bytes,"
        "h2d_GBps,check,err,cpu_ms,h2d_warm_bytes,d2h_warm_bytes,decision\n") ;

    for (int s = 0 ; s < nscales ; s++)
    {
        csr A ;
        double t0 = now () ;
        make_rmat (&A, scales [s]) ;
        printf ("# generated %s in %.1f s\n", A.name, now () - t0) ;
        run_matrix (b, h, &A) ;
        free_csr (&A) ;
    }
    if (data_dir != NULL && real_filter [0] != '\0')
    {
        DIR *d = opendir (data_dir) ;
        if (d == NULL) printf ("# no real matrices (%s absent)\n", data_dir) ;
        struct dirent *de ;
        while (d && (de = readdir (d)) != NULL)
        {
            size_t len = strlen (de->d_name) ;
            if (len < 8 || strcmp (de->d_name + len - 7, ".mtx.gz") != 0 ||
                !wanted_real (de->d_name)) continue ;
            char path [1024] ;
            snprintf (path, sizeof (path), "%s/%s", data_dir, de->d_name) ;
            csr A ;
            char name [64] ;
            snprintf (name, sizeof (name), "%.*s", (int) (len - 7), de->d_name) ;
            if (!read_mtx (&A, path, name)) continue ;
            run_matrix (b, h, &A) ;
            free_csr (&A) ;
        }
        if (d) closedir (d) ;
    }
    fclose (csv) ;
    cusparseDestroy (h) ;
    printf ("# %s: %d wrong result(s); CSV in %s\n", failures ? "FAILED" :
        "all results checked", failures, csv_path) ;
    return failures ? 1 : 0 ;
}
