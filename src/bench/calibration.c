/* SPDX-License-Identifier: MIT */
/*
 * calibration.c - step 3 of one (kernel, size) (docs/methodology.md): how
 * many iterations one sample holds (k), from the timer's overhead and
 * resolution (timer.c measures them), and how many samples a fixed policy
 * draws (IMB's repetitions for --fixed-imb).
 */
#include <math.h>

#include "measure.h"

/* Shortest sample the harness aims for, in ns, besides the timer rule of
 * p2pb_choose_batch: a sample must span the host's periodic noise (timer
 * ticks, hypervisor exits) as IMB's batch of n iterations does, or its
 * median leaves out a cost every iteration pays on average: on a KVM guest
 * of an AMD EPYC host, PingPong 32 KiB samples of 100 or 300 usec gave a
 * median 5% below the mean of 1000 back-to-back iterations, samples of 1 ms
 * agreed with it within 1% (docs/methodology.md, "Samples"). */
#define P2PB_MIN_SAMPLE_NS 1000000.0

/* Length in ns of the calibration batch that estimates the time per
 * iteration (k then scales it to the sample target). */
#define P2PB_CALIB_NS 50000.0

/* Largest batch the calibration tries: 2^20 iterations. */
#define P2PB_MAX_CALIBRATION_BATCH ((size_t)1 << 20)

size_t p2pb_imb_repetitions(size_t bytes)
{
    if (bytes <= 32768)
        return 1000;
    size_t r = (size_t)41943040 / bytes;
    return r ? r : 1;
}

size_t p2pb_choose_batch(double t_iter_ns, const struct p2pb_timer_info *ti)
{
    double target = 20.0 * ti->overhead_ns;
    if (10.0 * ti->resolution_ns > target)
        target = 10.0 * ti->resolution_ns;
    if (!(t_iter_ns > 0.0))
        return 1;
    double k = target / t_iter_ns;
    if (k <= 1.0)
        return 1;
    if (k > 1e9)
        return 1000000000;
    size_t kk = (size_t)k;
    return (double)kk < k ? kk + 1 : kk;
}

double p2pb_timed_batch(struct p2pb_measure *r, size_t m, int ramp)
{
    const struct p2pb_test_seams *seams = p2pb_test_seams();
    P2PB_MPI_CHECK(MPI_Barrier(r->c.comm));
    uint64_t t0 = p2pb_now_ns();
    if (ramp && seams->calib_batch) /* test seam (seams.c); NULL in normal runs */
        seams->calib_batch(&r->c);
    uint64_t untimed = p2pb_run_iters(r, m); /* kernel.h, between_iter */
    double local = (double)(p2pb_now_ns() - t0 - untimed), dur = 0;
    P2PB_MPI_CHECK(MPI_Allreduce(&local, &dur, 1, MPI_DOUBLE, MPI_MAX, r->c.comm));
    return dur;
}

double p2pb_sample_target_ns(const struct p2pb_timer_info *ti)
{
    double target = 20.0 * ti->overhead_ns;
    if (10.0 * ti->resolution_ns > target)
        target = 10.0 * ti->resolution_ns;
    if (P2PB_MIN_SAMPLE_NS > target)
        target = P2PB_MIN_SAMPLE_NS;
    return target;
}

/*
 * Time per iteration in ns: batches of 1, 4, 16, ... iterations until one
 * lasts `target`, then the fastest of three batches of that size (a batch
 * hit by a preemption looks slow and would give a k far too small). When a
 * single iteration lasts the target, k is 1 whatever the others would say:
 * no more batches.
 */
static double iteration_time_ns(struct p2pb_measure *r, double target)
{
    size_t m = 1;
    double dur = 0;
    for (;;) {
        dur = p2pb_timed_batch(r, m, 1);
        r->warm += m;
        if (dur >= target || m >= P2PB_MAX_CALIBRATION_BATCH)
            break;
        m *= 4;
    }
    for (int again = 0; again < 2 && m > 1; again++) {
        double d2 = p2pb_timed_batch(r, m, 1);
        r->warm += m;
        if (d2 < dur)
            dur = d2;
    }
    return dur / (double)m;
}

size_t p2pb_floor_rebatch(size_t k, double dur_ns, double target_ns, size_t max_k)
{
    if (dur_ns >= target_ns)
        return k;
    /* the batch's own time per iteration, 5% margin; x16 when it read 0 */
    double nk = dur_ns > 0 ? ceil((double)k * target_ns / dur_ns * 1.05) : 16.0 * (double)k;
    if (nk <= (double)k)
        nk = (double)k + 1;
    return nk > (double)max_k ? 0 : (size_t)nk;
}

/*
 * The floor check: the faster of two batches of k iterations must last the
 * target; if it does not (an estimate batch was slowed down, e.g. preempted), k is re-computed
 * from it, at most P2PB_FLOOR_TRIES times. Returns k, or 0 (refuse).
 */
static size_t check_floor(struct p2pb_measure *r, size_t k, double target)
{
    for (int i = 0; i < P2PB_FLOOR_TRIES && k > 0; i++) {
        /* the faster of two: one slow batch must not pass the check */
        double dur = p2pb_timed_batch(r, k, 0), d2 = p2pb_timed_batch(r, k, 0);
        dur = d2 < dur ? d2 : dur;
        r->warm += 2 * k;
        size_t nk = p2pb_floor_rebatch(k, dur, target, P2PB_MAX_CALIBRATION_BATCH * 64);
        if (nk == k)
            return k;
        k = nk;
    }
    return 0;
}

/* k such that one sample lasts the target and satisfies p2pb_choose_batch;
 * 0 when the floor cannot be met (the row is refused). The floor check by
 * extra batches is for --fixed-imb only: the adaptive and --samples policies
 * check it on the first round's samples (p2pb_sample_floor), at no cost. */
static size_t choose_k(struct p2pb_measure *r)
{
    const double target = p2pb_sample_target_ns(r->ti);
    const double t_iter =
        r->t_iter_ns > 0 ? r->t_iter_ns
                         : iteration_time_ns(r, target < P2PB_CALIB_NS ? target : P2PB_CALIB_NS);
    size_t kb = t_iter > 0 ? (size_t)ceil(target / t_iter) : 1;
    size_t kt = p2pb_choose_batch(t_iter, r->ti);
    if (kt > kb)
        kb = kt;
    kb = kb < 1 ? 1 : kb;
    return r->pol->mode == P2PB_POLICY_FIXED_IMB ? check_floor(r, kb, target) : kb;
}

/*
 * Samples of all rounds for the fixed policies. IMB's rule is about the
 * bytes an iteration moves: for kernels with fixed bytes per iteration
 * (memcpy copies its whole buffer) that is the buffer, not the chunk size.
 */
static void total_counts(struct p2pb_measure *r)
{
    const struct p2pb_policy *pol = r->pol;
    r->ntotal = 0;
    if (pol->mode == P2PB_POLICY_FIXED) {
        r->ntotal = pol->samples;
    } else if (pol->mode == P2PB_POLICY_FIXED_IMB) {
        size_t reps =
            p2pb_imb_repetitions(p2pb_kernel_fixed_bytes(r->k) ? r->c.copy_bytes : r->c.bytes);
        if (r->kb > reps)
            r->kb = reps;
        while (reps % r->kb)
            r->kb--;
        r->ntotal = reps / r->kb;
    }
}

/* ceil(a / b), b > 0. */
static size_t ceil_div(size_t a, size_t b)
{
    return a / b + (a % b != 0);
}

void p2pb_round_counts(struct p2pb_measure *r)
{
    const struct p2pb_policy *pol = r->pol;
    const size_t R = r->nrounds;
    if (pol->mode != P2PB_POLICY_ADAPTIVE) { /* split exactly; early rounds get the rest */
        r->nmin = r->nmax = r->ntotal / R + (r->round < r->ntotal % R);
        return;
    }
    r->nmax = ceil_div(pol->max_samples, R);
    r->nmin = ceil_div(pol->min_samples, R);
    if (r->nmin < P2PB_ROUND_MIN_SAMPLES)
        r->nmin = P2PB_ROUND_MIN_SAMPLES;
    if (r->nmin > r->nmax)
        r->nmin = r->nmax;
}

void p2pb_calibrate(struct p2pb_measure *r)
{
    r->kb = r->pol->batch ? r->pol->batch : choose_k(r);
    r->refused = r->kb == 0;
    if (r->refused)
        r->kb = 1;
    total_counts(r);
}
