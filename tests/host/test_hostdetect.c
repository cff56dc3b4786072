/* SPDX-License-Identifier: MIT */
/*
 * Unit tests (no MPI) for hostdetect.h (hypervisor.c, facts.c, placement.c): hypervisor signals and
 * verdicts from fixture directories (tests/data/hostinfo/<case>/), cpufreq and container markers,
 * the topology summary of a synthetic hwloc XML topology, the environment overrides, and placement
 * warnings from hand-made rank records. Usage: test_hostdetect DATA_DIR
 */
#include <cjson/cJSON.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/check.h"
#include "host/hostdetect.h"
#include "host/mpit.h"

/* Two strings equal (NULL never equals), printing both on failure. */
#define CHECK_STREQ(a, b)                                                                      \
    do {                                                                                       \
        const char *ca_ = (a), *cb_ = (b);                                                     \
        if (ca_ && cb_ && strcmp(ca_, cb_) == 0)                                               \
            check_passed_++;                                                                   \
        else {                                                                                 \
            check_failed_++;                                                                   \
            fprintf(stderr, "%s:%d: CHECK_STREQ failed: %s = '%s', expected '%s'\n", __FILE__, \
                    __LINE__, #a, ca_ ? ca_ : "(null)", cb_ ? cb_ : "(null)");                 \
        }                                                                                      \
    } while (0)

static const char *data_dir;

static cJSON *hv_case(const char *name, struct p2pb_hv_signals *sig)
{
    char dir[1024];
    struct p2pb_host_source src;
    snprintf(dir, sizeof dir, "%s/%s", data_dir, name);
    p2pb_host_source_fixture(&src, dir);
    p2pb_hv_read(&src, sig);
    return p2pb_hv_json(sig);
}

static const char *sget(const cJSON *o, const char *a, const char *b)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, a);
    if (b)
        v = cJSON_GetObjectItemCaseSensitive(v, b);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int disagree(const cJSON *hv)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(hv, "signals_disagree"));
}

static void test_verdicts(void)
{
    struct p2pb_hv_signals s;
    cJSON *hv;

    hv = hv_case("bare-metal", &s);
    CHECK(s.cpuid_available == 1 && s.cpuid_hv_bit == 0);
    CHECK_STREQ(sget(hv, "verdict_derived", NULL), "none");
    CHECK(!disagree(hv));
    CHECK_STREQ(sget(hv, "signals", "dmi_sys_vendor"), "Dell Inc.");
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(hv, "signals"), "sys_hypervisor_type")));
    CHECK_STREQ(sget(hv, "signals", "cpuid_0x40000000_regs"),
                "00000aa0 00000100 00000064 00000000");
    CHECK_STREQ(sget(cJSON_GetObjectItemCaseSensitive(hv, "container"), "container_derived", NULL),
                "none");
    cJSON_Delete(hv);

    hv = hv_case("xen-domU", &s);
    CHECK_STREQ(s.vendor40000000, "XenVMMXenVMM");
    CHECK(s.xen_capabilities_present && s.xen_capabilities[0] == '\0');
    CHECK_STREQ(sget(hv, "verdict_derived", NULL), "xen-domU");
    CHECK_STREQ(sget(hv, "verdict_basis", NULL), "xen_capabilities");
    CHECK(!disagree(hv));
    CHECK_STREQ(sget(hv, "signals", "xen_capabilities"), "");
    cJSON_Delete(hv);

    hv = hv_case("xen-dom0", &s);
    CHECK_STREQ(sget(hv, "verdict_derived", NULL), "xen-dom0");
    CHECK_STREQ(sget(hv, "signals", "xen_capabilities"), "control_d");
    CHECK(!disagree(hv)); /* CPUID's XenVMM is dom0's own hypervisor */
    cJSON_Delete(hv);

    hv = hv_case("kvm", &s);
    CHECK_STREQ(s.vendor40000000, "KVMKVMKVM");
    CHECK_STREQ(sget(hv, "verdict_derived", NULL), "kvm");
    CHECK_STREQ(sget(hv, "signals", "clocksource"), "kvm-clock");
    CHECK(!disagree(hv));
    cJSON_Delete(hv);

    /* bhyve's CPUID signature under KVM's clocksource (this machine) */
    hv = hv_case("disagree", &s);
    CHECK_STREQ(s.vendor40000000, "bhyve bhyve ");
    CHECK_STREQ(sget(hv, "verdict_derived", NULL), "other");
    CHECK_STREQ(sget(hv, "verdict_basis", NULL), "signals disagree");
    CHECK(disagree(hv));
    {
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(hv, "disagreeing_signals");
        CHECK(cJSON_GetArraySize(d) == 2);
        CHECK_STREQ(cJSON_GetStringValue(cJSON_GetArrayItem(d, 0)),
                    "cpuid_0x40000000_vendor suggests bhyve");
        CHECK_STREQ(cJSON_GetStringValue(cJSON_GetArrayItem(d, 1)), "clocksource suggests kvm");
    }
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(hv, "container");
    CHECK_STREQ(sget(c, "container_derived", NULL), "docker");
    CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(c, "markers"), "dockerenv")));
    CHECK_STREQ(sget(c, "markers", "cgroup"), "docker");
    cJSON_Delete(hv);

    hv = hv_case("xen-viridian", &s);
    CHECK_STREQ(s.vendor40000000, "Microsoft Hv");
    CHECK_STREQ(s.vendor40000100, "XenVMMXenVMM");
    CHECK_STREQ(sget(hv, "verdict_derived", NULL), "xen-domU");
    /* 0x40000000's "Microsoft Hv" is Xen's viridian interface (Xen's leaf
     * moved to 0x40000100): recorded raw, no disagreement */
    CHECK(!disagree(hv));
    CHECK_STREQ(sget(hv, "signals", "cpuid_0x40000000_vendor"), "Microsoft Hv");
    cJSON_Delete(hv);

    hv = hv_case("no-cpuid", &s);
    CHECK(s.cpuid_available == 0 && s.cpuid_hv_bit == -1);
    CHECK_STREQ(sget(hv, "verdict_derived", NULL), "none");
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(hv, "signals"), "cpuid_1_ecx_bit31")));
    cJSON_Delete(hv);

    /* the hypervisor bit alone: some hypervisor, unnamed */
    memset(&s, 0, sizeof s);
    s.cpuid_available = 1;
    s.cpuid_hv_bit = 1;
    char basis[64];
    CHECK_STREQ(p2pb_hv_verdict(&s, basis, sizeof basis), "other");
    CHECK_STREQ(basis, "cpuid_1_ecx_bit31");
    snprintf(s.dmi_product_name, sizeof s.dmi_product_name, "VMware Virtual Platform");
    CHECK_STREQ(p2pb_hv_verdict(&s, basis, sizeof basis), "vmware");
    CHECK_STREQ(basis, "dmi");
}

/* Leaf 1 with the hypervisor bit, leaf 0x40000000 holding sig (12 bytes,
 * EBX ECX EDX, little-endian as the CPU returns them) and, when sig100 is
 * not NULL, leaf 0x40000100 holding sig100: a fixture directory dir read
 * through p2pb_hv_read as on a guest. */
static void read_signature(const char *dir, const char *sig, const char *sig100,
                           struct p2pb_hv_signals *s)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/cpuid.txt", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fprintf(f, "00000001 00000000 00000000 80000000 00000000\n");
    for (int k = 0; k < 2; k++) {
        const char *g = k ? sig100 : sig;
        if (!g)
            continue;
        uint32_t r[3];
        memcpy(r, g, 12);
        fprintf(f, "%08x 40000001 %08x %08x %08x\n", k ? 0x40000100u : 0x40000000u, r[0], r[1],
                r[2]);
    }
    fclose(f);
    struct p2pb_host_source src;
    p2pb_host_source_fixture(&src, dir);
    p2pb_hv_read(&src, s);
}

/* Every published CPUID 0x40000000 signature (hypervisor.c cites the
 * sources) through the whole path: registers, vendor text, verdict. */
static void test_signatures(void)
{
    static const struct {
        const char bytes[13]; /* 12 bytes as the registers hold them */
        const char *text;     /* the vendor string recorded */
        const char *verdict;
    } sigs[] = {
        {"KVMKVMKVM\0\0\0", "KVMKVMKVM", "kvm"},
        {"Linux KVM Hv", "Linux KVM Hv", "kvm"},
        {"Microsoft Hv", "Microsoft Hv", "hyperv"},
        {"VMwareVMware", "VMwareVMware", "vmware"},
        {"XenVMMXenVMM", "XenVMMXenVMM", "xen-domU"},
        {"bhyve bhyve ", "bhyve bhyve ", "bhyve"},
        {"BHyVE BHyVE ", "BHyVE BHyVE ", "bhyve"},
        {"TCGTCGTCGTCG", "TCGTCGTCGTCG", "qemu-tcg"},
        {"ACRNACRNACRN", "ACRNACRNACRN", "acrn"},
        {" lrpepyh  vr", " lrpepyh  vr", "parallels"},
        {"prl hyperv  ", "prl hyperv  ", "parallels"},
        {"VBoxVBoxVBox", "VBoxVBoxVBox", "virtualbox"},
        {" QNXQVMBSQG ", " QNXQVMBSQG ", "qnx"},
        {"QNXQVMBSQG\0\0", "QNXQVMBSQG", "qnx"},
        {"Jailhouse\0\0\0", "Jailhouse", "jailhouse"},
        {"SomeNewHvXYZ", "SomeNewHvXYZ", "other"}, /* unknown, with the hypervisor bit */
    };
    char dir[] = "/tmp/p2pb-hvsig-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct p2pb_hv_signals s;
        char basis[64];
        read_signature(dir, sigs[i].bytes, NULL, &s);
        CHECK_STREQ(s.vendor40000000, sigs[i].text);
        CHECK_STREQ(p2pb_hv_verdict(&s, basis, sizeof basis), sigs[i].verdict);
        CHECK_STREQ(basis, "cpuid_0x40000000_vendor");
    }
    /* Hyper-V's interface at 0x40000000 offered by KVM or Xen, whose own
     * leaves then sit at 0x40000100: named by 0x40000100, no disagreement */
    struct p2pb_hv_signals s;
    char basis[64];
    read_signature(dir, "Microsoft Hv", "KVMKVMKVM\0\0\0", &s);
    CHECK_STREQ(p2pb_hv_verdict(&s, basis, sizeof basis), "kvm");
    CHECK_STREQ(basis, "cpuid_0x40000100_vendor");
    cJSON *hv = p2pb_hv_json(&s);
    CHECK(!disagree(hv));
    cJSON_Delete(hv);
    /* without the hypervisor bit an unknown leaf is a leftover, not a guest */
    read_signature(dir, "SomeNewHvXYZ", NULL, &s);
    s.cpuid_hv_bit = 0;
    CHECK_STREQ(p2pb_hv_verdict(&s, basis, sizeof basis), "none");
    char path[1100];
    snprintf(path, sizeof path, "%s/cpuid.txt", dir);
    remove(path);
    rmdir(dir);
}

/* Signals that name different hypervisors: "other", and the basis and the
 * record say they disagree and who said what. */
static void test_disagreement(void)
{
    struct p2pb_hv_signals s;
    memset(&s, 0, sizeof s);
    s.cpuid_available = 1;
    s.cpuid_hv_bit = 1;
    snprintf(s.vendor40000000, sizeof s.vendor40000000, "KVMKVMKVM");
    snprintf(s.dmi_sys_vendor, sizeof s.dmi_sys_vendor, "VMware, Inc.");
    char basis[64];
    CHECK_STREQ(p2pb_hv_verdict(&s, basis, sizeof basis), "other");
    CHECK_STREQ(basis, "signals disagree");
    cJSON *hv = p2pb_hv_json(&s);
    CHECK(disagree(hv));
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(hv, "disagreeing_signals");
    CHECK(cJSON_GetArraySize(d) == 2);
    CHECK_STREQ(cJSON_GetStringValue(cJSON_GetArrayItem(d, 0)),
                "cpuid_0x40000000_vendor suggests kvm");
    CHECK_STREQ(cJSON_GetStringValue(cJSON_GetArrayItem(d, 1)), "dmi suggests vmware");
    cJSON_Delete(hv);
    /* DMI agreeing with CPUID: named; "Amazon EC2" (also bare metal) names none */
    snprintf(s.dmi_sys_vendor, sizeof s.dmi_sys_vendor, "QEMU");
    CHECK_STREQ(p2pb_hv_verdict(&s, basis, sizeof basis), "kvm");
    snprintf(s.dmi_sys_vendor, sizeof s.dmi_sys_vendor, "Amazon EC2");
    CHECK_STREQ(p2pb_hv_verdict(&s, basis, sizeof basis), "kvm");
    memset(&s, 0, sizeof s);
    snprintf(s.dmi_sys_vendor, sizeof s.dmi_sys_vendor, "Amazon EC2");
    CHECK_STREQ(p2pb_hv_verdict(&s, basis, sizeof basis), "none");
}

static void test_cpufreq_and_boot_id(void)
{
    char dir[1024];
    struct p2pb_host_source src;
    snprintf(dir, sizeof dir, "%s/bare-metal", data_dir);
    p2pb_host_source_fixture(&src, dir);
    cJSON *f = p2pb_cpufreq_json(&src, 0);
    CHECK_STREQ(sget(f, "governor", NULL), "performance");
    CHECK_STREQ(sget(f, "driver", NULL), "intel_pstate");
    const cJSON *cur = cJSON_GetObjectItemCaseSensitive(f, "cur_khz");
    CHECK(cJSON_GetArraySize(cur) == 2);
    CHECK(cJSON_GetArrayItem(cur, 1) && cJSON_GetArrayItem(cur, 1)->valuedouble == 2500000);
    const cJSON *mhz = cJSON_GetObjectItemCaseSensitive(f, "cpuinfo_mhz");
    CHECK(cJSON_GetArraySize(mhz) == 2 && cJSON_GetArrayItem(mhz, 0)->valuedouble == 2400);
    CHECK(cJSON_GetObjectItemCaseSensitive(f, "max_khz")->valuedouble == 3700000);
    cJSON_Delete(f);

    snprintf(dir, sizeof dir, "%s/kvm", data_dir);
    p2pb_host_source_fixture(&src, dir);
    f = p2pb_cpufreq_json(&src, 2);
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(f, "governor")));
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(f, "cur_khz")));
    cJSON_Delete(f);

    char boot[64];
    snprintf(dir, sizeof dir, "%s/bare-metal", data_dir);
    p2pb_host_source_fixture(&src, dir);
    p2pb_boot_id(&src, boot, sizeof boot);
    CHECK_STREQ(boot, "11111111-2222-3333-4444-555555555555");
}

/* Host knobs read from the fixtures (values written by hand in
 * tests/data/hostinfo/bare-metal; kvm has none of the files). */
static void test_knobs(void)
{
    char dir[1024], sel[64];
    struct p2pb_host_source src;
    CHECK(p2pb_knob_selected("always [madvise] never", sel, sizeof sel) == 0);
    CHECK_STREQ(sel, "madvise");
    CHECK(p2pb_knob_selected("42", sel, sizeof sel) == 0);
    CHECK_STREQ(sel, "42");
    CHECK_STREQ(p2pb_mitigation_class("Mitigation: PTI"), "mitigated");
    CHECK_STREQ(p2pb_mitigation_class("Vulnerable"), "vulnerable");
    CHECK_STREQ(p2pb_mitigation_class("Not affected"), "not affected");
    CHECK_STREQ(p2pb_mitigation_class("KVM: Mitigation: VMX disabled"), "other");

    snprintf(dir, sizeof dir, "%s/bare-metal", data_dir);
    p2pb_host_source_fixture(&src, dir);
    cJSON *k = p2pb_knobs_json(&src);
    CHECK_STREQ(sget(k, "thp_enabled", NULL), "always");
    CHECK_STREQ(sget(k, "thp_defrag", NULL), "madvise");
    CHECK_STREQ(sget(k, "numa_balancing", NULL), "1");
    CHECK_STREQ(sget(k, "smt_control", NULL), "on");
    CHECK_STREQ(sget(k, "smt_active", NULL), "1");
    CHECK_STREQ(sget(k, "tuned_profile", NULL), "throughput-performance");
    CHECK_STREQ(sget(k, "cmdline_mitigations", NULL), "off");
    CHECK_STREQ(sget(k, "mitigations", "summary"),
                "mitigated 1, vulnerable 1, not affected 1, other 1");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(k, "mitigations");
    const cJSON *vul = cJSON_GetObjectItemCaseSensitive(m, "vulnerable");
    CHECK(cJSON_GetArraySize(vul) == 1 && cJSON_IsString(cJSON_GetArrayItem(vul, 0)) &&
          strcmp(cJSON_GetArrayItem(vul, 0)->valuestring, "mds") == 0);
    CHECK_STREQ(sget(cJSON_GetObjectItemCaseSensitive(m, "files"), "meltdown", NULL),
                "Mitigation: PTI");
    cJSON_Delete(k);
    cJSON *f = p2pb_cpufreq_json(&src, 0);
    CHECK_STREQ(sget(f, "boost", NULL), "off"); /* intel_pstate/no_turbo = 1 */
    CHECK_STREQ(sget(f, "boost_basis", NULL), "devices/system/cpu/intel_pstate/no_turbo");
    cJSON_Delete(f);

    snprintf(dir, sizeof dir, "%s/kvm", data_dir);
    p2pb_host_source_fixture(&src, dir);
    k = p2pb_knobs_json(&src);
    static const char *const absent[] = {"thp_enabled", "thp_defrag",  "numa_balancing",
                                         "smt_control", "mitigations", "tuned_profile"};
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++)
        CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(k, absent[i])));
    cJSON_Delete(k);

    /* no interface: null, and why; loopback: coalescing read or the ioctl's error */
    cJSON *nic = p2pb_nic_json(NULL, NULL);
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(nic, "interface")));
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(nic, "coalesce")));
    CHECK(sget(nic, "coalesce_error", NULL) != NULL);
    cJSON_Delete(nic);
    nic = p2pb_nic_json("lo", "loopback");
    CHECK_STREQ(sget(nic, "interface", NULL), "lo");
    CHECK(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(nic, "coalesce")) !=
          (sget(nic, "coalesce_error", NULL) != NULL));
    cJSON_Delete(nic);
}

static void test_env_overrides(void)
{
    char sys[1024], cpuid[1024];
    snprintf(sys, sizeof sys, "%s/kvm/sys", data_dir);
    snprintf(cpuid, sizeof cpuid, "%s/xen-dom0/cpuid.txt", data_dir);
    setenv("P2PB_SYSFS_ROOT", sys, 1);
    setenv("P2PB_PROCFS_ROOT", "/nonexistent", 1);
    setenv("P2PB_CPUID_FILE", cpuid, 1);
    struct p2pb_host_source src;
    p2pb_host_source_default(&src);
    CHECK_STREQ(src.sysfs, sys);
    CHECK_STREQ(src.procfs, "/nonexistent");
    struct p2pb_hv_signals s;
    p2pb_hv_read(&src, &s);
    CHECK_STREQ(s.vendor40000000, "XenVMMXenVMM");
    CHECK_STREQ(s.clocksource, "kvm-clock");
    CHECK(!s.xen_capabilities_present);
    unsetenv("P2PB_SYSFS_ROOT");
    unsetenv("P2PB_PROCFS_ROOT");
    unsetenv("P2PB_CPUID_FILE");
    p2pb_host_source_default(&src);
    CHECK_STREQ(src.sysfs, "/sys");
    CHECK_STREQ(src.procfs, "/proc");
    CHECK(src.cpuid_file[0] == '\0');
}

static double num_at(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static void test_topology_xml(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/synthetic-2pack.xml", data_dir);
    hwloc_topology_t t;
    CHECK(hwloc_topology_init(&t) == 0);
    CHECK(hwloc_topology_set_xml(t, path) == 0);
    CHECK(hwloc_topology_load(t) == 0);
    cJSON *j = p2pb_topology_json(t);
    CHECK(num_at(j, "packages") == 2);
    CHECK(num_at(j, "numa_nodes") == 2);
    CHECK(num_at(j, "cores") == 8);
    CHECK(num_at(j, "pus") == 16);
    CHECK(num_at(j, "memory_bytes") == 8589934592.0);
    const cJSON *caches = cJSON_GetObjectItemCaseSensitive(j, "caches");
    CHECK(cJSON_GetArraySize(caches) == 3);
    const cJSON *l1 = cJSON_GetArrayItem(caches, 0), *l3 = cJSON_GetArrayItem(caches, 2);
    CHECK(num_at(l1, "level") == 1 && num_at(l1, "size_bytes") == 32768 &&
          num_at(l1, "count") == 8);
    CHECK(num_at(l3, "level") == 3 && num_at(l3, "size_bytes") == 16777216 &&
          num_at(l3, "count") == 2);
    cJSON_Delete(j);
    hwloc_topology_destroy(t);
}

static cJSON *rank_rec(int rank, const char *host, const char *boot, const char *binding, int bound)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddNumberToObject(r, "rank", rank);
    cJSON_AddStringToObject(r, "host", host);
    if (boot)
        cJSON_AddStringToObject(r, "boot_id", boot);
    cJSON_AddStringToObject(r, "binding", binding);
    cJSON_AddBoolToObject(r, "bound", bound);
    return r;
}

static cJSON *hosts_with(const char *h1, int pus1, const char *h2, int pus2)
{
    cJSON *hosts = cJSON_CreateObject();
    cJSON *a = cJSON_AddObjectToObject(hosts, h1);
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(a, "topology"), "pus", pus1);
    if (h2) {
        cJSON *b = cJSON_AddObjectToObject(hosts, h2);
        cJSON_AddNumberToObject(cJSON_AddObjectToObject(b, "topology"), "pus", pus2);
    }
    return hosts;
}

static const char *warning(const cJSON *w, int i)
{
    return cJSON_GetStringValue(cJSON_GetArrayItem(w, i));
}

static void test_placement(void)
{
    /* well placed: no warnings */
    cJSON *ranks = cJSON_CreateArray(), *hosts = hosts_with("vm", 2, NULL, 0);
    cJSON_AddItemToArray(ranks, rank_rec(0, "vm", "B", "0", 1));
    cJSON_AddItemToArray(ranks, rank_rec(1, "vm", "B", "1", 1));
    cJSON *w = p2pb_placement_warnings(ranks, hosts);
    CHECK(cJSON_GetArraySize(w) == 0);
    cJSON_Delete(w);
    cJSON_Delete(ranks);

    /* both on PU 0 */
    ranks = cJSON_CreateArray();
    cJSON_AddItemToArray(ranks, rank_rec(0, "vm", "B", "0", 1));
    cJSON_AddItemToArray(ranks, rank_rec(1, "vm", "B", "0", 1));
    w = p2pb_placement_warnings(ranks, hosts);
    CHECK(cJSON_GetArraySize(w) == 1);
    CHECK_STREQ(warning(w, 0), "ranks 0 and 1 on host vm are bound to overlapping PUs (0)");
    cJSON_Delete(w);
    cJSON_Delete(ranks);

    /* not bound, and oversubscribed */
    ranks = cJSON_CreateArray();
    for (int i = 0; i < 3; i++)
        cJSON_AddItemToArray(ranks, rank_rec(i, "vm", "B", "0-1", 0));
    w = p2pb_placement_warnings(ranks, hosts);
    CHECK(cJSON_GetArraySize(w) == 2);
    CHECK_STREQ(warning(w, 0), "3 ranks on host vm, which has 2 PU(s): oversubscribed");
    CHECK_STREQ(warning(w, 1), "ranks 0,1,2 on host vm are not bound to a PU set (binding: 0-1)");
    cJSON_Delete(w);
    cJSON_Delete(ranks);
    cJSON_Delete(hosts);

    /* two "hosts" (network namespaces) on one machine, both on PU 0: the
     * 4 ms per 8-byte message case of docs/testbed.md */
    hosts = hosts_with("hostA", 2, "hostB", 2);
    ranks = cJSON_CreateArray();
    cJSON_AddItemToArray(ranks, rank_rec(0, "hostA", "same-boot", "0", 1));
    cJSON_AddItemToArray(ranks, rank_rec(1, "hostB", "same-boot", "0", 1));
    w = p2pb_placement_warnings(ranks, hosts);
    CHECK(cJSON_GetArraySize(w) == 1);
    CHECK_STREQ(warning(w, 0), "ranks 0 and 1 on hosts hostA and hostB (one machine: same boot_id) "
                               "are bound to overlapping PUs (0)");
    cJSON_Delete(w);
    cJSON_Delete(ranks);

    /* really two machines: PU 0 on each is fine */
    ranks = cJSON_CreateArray();
    cJSON_AddItemToArray(ranks, rank_rec(0, "hostA", "boot-a", "0", 1));
    cJSON_AddItemToArray(ranks, rank_rec(1, "hostB", "boot-b", "0", 1));
    w = p2pb_placement_warnings(ranks, hosts);
    CHECK(cJSON_GetArraySize(w) == 0);
    cJSON_Delete(w);
    cJSON_Delete(ranks);

    /* four namespace "hosts" on one 2-PU machine: the warning names them all */
    cJSON_Delete(hosts);
    hosts = hosts_with("ns1", 2, NULL, 0);
    ranks = cJSON_CreateArray();
    for (int i = 0; i < 4; i++) {
        char name[8];
        snprintf(name, sizeof name, "ns%d", i + 1);
        cJSON_AddItemToArray(ranks, rank_rec(i, name, "same-boot", "0-1", 0));
    }
    w = p2pb_placement_warnings(ranks, hosts);
    CHECK_STREQ(warning(w, 0), "4 ranks on hosts ns1,ns2,ns3,ns4 (one machine: same boot_id), "
                               "which has 2 PU(s): oversubscribed");
    cJSON_Delete(w);
    cJSON_Delete(ranks);

    /* no boot ids: fall back to host names; hostA has one PU */
    cJSON_Delete(hosts);
    hosts = hosts_with("hostA", 1, "hostB", 2);
    ranks = cJSON_CreateArray();
    cJSON_AddItemToArray(ranks, rank_rec(0, "hostA", NULL, "0-1", 1));
    cJSON_AddItemToArray(ranks, rank_rec(1, "hostA", NULL, "1", 1));
    cJSON_AddItemToArray(ranks, rank_rec(2, "hostB", NULL, "1", 1));
    w = p2pb_placement_warnings(ranks, hosts);
    CHECK(cJSON_GetArraySize(w) == 2);
    CHECK_STREQ(warning(w, 0), "ranks 0 and 1 on host hostA are bound to overlapping PUs (1)");
    CHECK_STREQ(warning(w, 1), "2 ranks on host hostA, which has 1 PU(s): oversubscribed");
    cJSON_Delete(w);
    cJSON_Delete(ranks);
    cJSON_Delete(hosts);
}

static void test_limit_names(void)
{
    CHECK(p2pb_mpit_is_limit_name("btl_vader_eager_limit"));
    CHECK(p2pb_mpit_is_limit_name("btl_tcp_rndv_eager_limit"));
    CHECK(p2pb_mpit_is_limit_name("MPIR_CVAR_CH3_EAGER_MAX_MSG_SIZE"));
    CHECK(p2pb_mpit_is_limit_name("MPIR_CVAR_CH4_OFI_RNDV_PROTOCOL"));
    CHECK(!p2pb_mpit_is_limit_name("btl_tcp_if_include"));
    CHECK(!p2pb_mpit_is_limit_name("btl_vader_eager_limit_x"));

    cJSON *lim = cJSON_CreateObject();
    cJSON_AddNumberToObject(lim, "btl_tcp_rndv_eager_limit", 65536);
    cJSON_AddNumberToObject(lim, "btl_tcp_eager_limit", 65536);
    cJSON_AddNumberToObject(lim, "btl_openib_eager_limit", 12288);
    cJSON_AddNumberToObject(lim, "btl_ofi_eager_limit", 0);
    cJSON_AddNumberToObject(lim, "btl_vader_rndv_eager_limit", 32768);
    cJSON_AddNumberToObject(lim, "btl_vader_eager_limit", 4096);
    cJSON_AddNumberToObject(lim, "btl_self_eager_limit", 1024);
    CHECK(p2pb_mpit_pick_eager_limit(lim, 1, NULL) == 4096);
    CHECK(p2pb_mpit_pick_eager_limit(lim, 0, NULL) == 65536);
    cJSON_Delete(lim);

    lim = cJSON_CreateObject();
    cJSON_AddNumberToObject(lim, "MPIR_CVAR_NEMESIS_SHM_EAGER_MAX_SZ", -1);
    cJSON_AddNumberToObject(lim, "MPIR_CVAR_CH3_EAGER_MAX_MSG_SIZE", 131072);
    cJSON_AddNumberToObject(lim, "MPIR_CVAR_CH4_OFI_EAGER_MAX_MSG_SIZE", -1);
    CHECK(p2pb_mpit_pick_eager_limit(lim, 1, NULL) == 131072);
    CHECK(p2pb_mpit_pick_eager_limit(lim, 0, NULL) == 131072);
    CHECK(p2pb_mpit_pick_eager_limit(lim, 0, "MPICH Version: 4.0.2\nMPICH Device: ch3:nemesis") ==
          131072);
    /* ch4:ucx: the CH3 variable is listed but not used; UCX decides */
    CHECK(p2pb_mpit_pick_eager_limit(lim, 1, "MPICH Version: 4.0.2\nMPICH Device: ch4:ucx") == -1);
    CHECK(p2pb_mpit_pick_eager_limit(lim, 0, "MPICH Version: 4.0.2\nMPICH Device: ch4:ucx") == -1);
    cJSON_Delete(lim);

    lim = cJSON_CreateObject();
    CHECK(p2pb_mpit_pick_eager_limit(lim, 1, NULL) == -1);
    CHECK(p2pb_mpit_pick_eager_limit(NULL, 0, NULL) == -1);
    cJSON_Delete(lim);
}

/* The memory budget (memory.c) from hand-written fixtures: MemTotal 25.6e9,
 * MemAvailable 20.48e9 bytes; cgroup v2 /job/step (memory.max "max") under
 * /job (1610612736 - 110612736 = 1.5e9 free); cgroup v1 /slurm/job7
 * (4294967296 - 294967296 = 4e9 free) under /slurm (8589934592 free) under a
 * root of "no limit" (9223372036854771712). */
static void test_memory_budget(void)
{
    char dir[1024];
    struct p2pb_host_source src;
    struct p2pb_mem_budget b;
    snprintf(dir, sizeof dir, "%s/cgroup-v2", data_dir);
    p2pb_host_source_fixture(&src, dir);
    p2pb_memory_budget(&src, &b);
    CHECK(b.total == 25000000.0 * 1024 && b.available == 20000000.0 * 1024);
    CHECK(b.cgroup_max == 1610612736.0 && b.cgroup_free == 1.5e9 && b.budget == 1.5e9);
    CHECK_STREQ(b.cgroup, "/job (memory.max)");
    snprintf(dir, sizeof dir, "%s/cgroup-v1", data_dir);
    p2pb_host_source_fixture(&src, dir);
    p2pb_memory_budget(&src, &b);
    CHECK(b.cgroup_max == 4294967296.0 && b.cgroup_free == 4e9 && b.budget == 4e9);
    CHECK_STREQ(b.cgroup, "/slurm/job7 v1 (memory.limit_in_bytes)");
    snprintf(dir, sizeof dir, "%s/kvm", data_dir); /* no meminfo, no cgroup: nothing known */
    p2pb_host_source_fixture(&src, dir);
    p2pb_memory_budget(&src, &b);
    CHECK(b.budget == -1 && b.cgroup[0] == '\0');
}

/* The hypervisor of layer i of hv's "layers" (NULL when absent). */
static const char *layer(const cJSON *hv, int i)
{
    return sget(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(hv, "layers"), i),
                "hypervisor", NULL);
}

/* user-mode-linux names itself in /proc/cpuinfo; CPUID answers for the
 * machine beneath it, which is the next layer (issue 36). */
static void test_uml_layers(void)
{
    struct p2pb_hv_signals s;
    cJSON *hv = hv_case("uml", &s); /* captured in a UML guest of this machine */
    CHECK_STREQ(s.cpuinfo_vendor, "User Mode Linux");
    CHECK_STREQ(s.cpuinfo_model, "UML");
    CHECK_STREQ(sget(hv, "verdict_derived", NULL), "uml");
    CHECK_STREQ(sget(hv, "verdict_basis", NULL), "cpuinfo_vendor_id");
    CHECK_STREQ(sget(hv, "signals", "clocksource"), "timer");
    CHECK_STREQ(layer(hv, 0), "uml");
    CHECK_STREQ(layer(hv, 1), "bhyve");
    CHECK(layer(hv, 2) == NULL);
    CHECK_STREQ(sget(hv, "verdict_layers", NULL), "uml on bhyve");
    cJSON_Delete(hv);

    hv = hv_case("uml-kvm", &s); /* the same guest on a KVM host */
    CHECK_STREQ(sget(hv, "verdict_derived", NULL), "uml");
    CHECK_STREQ(sget(hv, "verdict_layers", NULL), "uml on kvm");
    CHECK_STREQ(sget(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(hv, "layers"), 1),
                     "basis", NULL),
                "cpuid_0x40000000_vendor");
    cJSON_Delete(hv);

    hv = hv_case("kvm", &s); /* no nesting: one layer */
    CHECK_STREQ(sget(hv, "verdict_layers", NULL), "kvm");
    CHECK(layer(hv, 1) == NULL);
    cJSON_Delete(hv);
    hv = hv_case("bare-metal", &s); /* none: no layer */
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(hv, "layers")) == 0);
    CHECK_STREQ(sget(hv, "verdict_layers", NULL), "none");
    CHECK(strcmp(s.cpuinfo_vendor, "User Mode Linux") != 0);
    cJSON_Delete(hv);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
        return 2;
    }
    data_dir = argv[1];
    test_verdicts();
    test_uml_layers();
    test_signatures();
    test_disagreement();
    test_cpufreq_and_boot_id();
    test_knobs();
    test_env_overrides();
    test_topology_xml();
    test_placement();
    test_limit_names();
    test_memory_budget();
    return CHECK_DONE();
}
