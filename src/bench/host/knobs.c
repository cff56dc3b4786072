/* SPDX-License-Identifier: MIT */
/*
 * knobs.c - host settings that explain results (hostdetect.h,
 * docs/host-context.md "Host knobs"): transparent huge pages, automatic NUMA
 * balancing, SMT, CPU vulnerability mitigations, the tuned profile, and the
 * interrupt coalescing of the NIC MPI uses (ethtool ioctl).
 */
#define _DEFAULT_SOURCE 1 /* struct ifreq, SIOCETHTOOL (Linux) */

#include "host/hostdetect.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#ifdef __linux__
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#endif

/* A string value, or null when the file is unreadable or empty. */
static cJSON *line_or_null(const char *root, const char *rel)
{
    char buf[512];
    if (p2pb_host_read_line(root, rel, buf, sizeof buf) == 0 && buf[0])
        return cJSON_CreateString(buf);
    return cJSON_CreateNull();
}

int p2pb_knob_selected(const char *line, char *out, size_t len)
{
    const char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;
    if (a && b)
        snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1);
    else
        snprintf(out, len, "%s", line);
    return out[0] ? 0 : -1;
}

/* The selected word of a sysfs choice file, or null. */
static cJSON *selected_or_null(const char *root, const char *rel)
{
    char buf[512], sel[512];
    if (p2pb_host_read_line(root, rel, buf, sizeof buf) == 0 && buf[0] &&
        p2pb_knob_selected(buf, sel, sizeof sel) == 0)
        return cJSON_CreateString(sel);
    return cJSON_CreateNull();
}

const char *p2pb_mitigation_class(const char *text)
{
    if (strncmp(text, "Not affected", 12) == 0)
        return "not affected";
    if (strncmp(text, "Vulnerable", 10) == 0)
        return "vulnerable";
    if (strncmp(text, "Mitigation", 10) == 0)
        return "mitigated";
    return "other";
}

/* Skip "." entries in scandir. */
static int not_hidden(const struct dirent *e)
{
    return e->d_name[0] != '.';
}

/* {"summary":"mitigated M, vulnerable V, not affected N, other O",
 *  "vulnerable":[names], "files":{name: text}} or null without the folder. */
static cJSON *mitigations_json(const struct p2pb_host_source *s)
{
    char dir[700];
    struct dirent **names = NULL;
    snprintf(dir, sizeof dir, "%s/devices/system/cpu/vulnerabilities", s->sysfs);
    int n = scandir(dir, &names, not_hidden, alphasort); /* sorted: stable records */
    if (n <= 0) {
        free(names);
        return cJSON_CreateNull();
    }
    cJSON *o = cJSON_CreateObject(), *files = cJSON_CreateObject(), *vul = cJSON_CreateArray();
    int mit = 0, vuln = 0, na = 0, other = 0;
    for (int i = 0; i < n; i++) {
        char rel[400], text[512];
        const char *name = names[i]->d_name;
        snprintf(rel, sizeof rel, "/devices/system/cpu/vulnerabilities/%s", name);
        if (p2pb_host_read_line(s->sysfs, rel, text, sizeof text) == 0) {
            cJSON_AddStringToObject(files, name, text);
            const char *c = p2pb_mitigation_class(text);
            mit += strcmp(c, "mitigated") == 0;
            na += strcmp(c, "not affected") == 0;
            other += strcmp(c, "other") == 0;
            if (strcmp(c, "vulnerable") == 0) {
                vuln++;
                cJSON_AddItemToArray(vul, cJSON_CreateString(name));
            }
        }
        free(names[i]); /* name points into it: freed once it is copied */
    }
    free(names);
    char sum[160];
    snprintf(sum, sizeof sum, "mitigated %d, vulnerable %d, not affected %d, other %d", mit, vuln,
             na, other);
    cJSON_AddStringToObject(o, "summary", sum);
    cJSON_AddItemToObject(o, "vulnerable", vul);
    cJSON_AddItemToObject(o, "files", files);
    return o;
}

/* The value of "mitigations=" on the kernel command line, or null. */
static cJSON *cmdline_mitigations(const struct p2pb_host_source *s)
{
    char buf[4096];
    if (p2pb_host_read_line(s->procfs, "/cmdline", buf, sizeof buf) != 0)
        return cJSON_CreateNull();
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        if (strncmp(tok, "mitigations=", 12) == 0)
            return cJSON_CreateString(tok + 12);
    return cJSON_CreateNull();
}

void *p2pb_knobs_json(const struct p2pb_host_source *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "thp_enabled",
                          selected_or_null(s->sysfs, "/kernel/mm/transparent_hugepage/enabled"));
    cJSON_AddItemToObject(o, "thp_defrag",
                          selected_or_null(s->sysfs, "/kernel/mm/transparent_hugepage/defrag"));
    cJSON_AddItemToObject(o, "numa_balancing",
                          line_or_null(s->procfs, "/sys/kernel/numa_balancing"));
    cJSON_AddItemToObject(o, "smt_control",
                          line_or_null(s->sysfs, "/devices/system/cpu/smt/control"));
    cJSON_AddItemToObject(o, "smt_active",
                          line_or_null(s->sysfs, "/devices/system/cpu/smt/active"));
    cJSON_AddItemToObject(o, "mitigations", mitigations_json(s));
    cJSON_AddItemToObject(o, "cmdline_mitigations", cmdline_mitigations(s));
    cJSON_AddItemToObject(o, "tuned_profile", line_or_null(s->rootfs, "/etc/tuned/active_profile"));
    return o;
}

#ifdef __linux__
/* The SIOCETHTOOL request in data (its cmd set) on ifname. Returns 0 or an
 * errno value. */
static int ethtool_ioctl(const char *ifname, void *data)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0)
        return errno;
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", ifname);
    ifr.ifr_data = data;
    int rc = ioctl(fd, SIOCETHTOOL, &ifr) == 0 ? 0 : errno;
    close(fd);
    return rc;
}

/* ETHTOOL_GCOALESCE of ifname into c. Returns 0 or an errno value. */
static int read_coalesce(const char *ifname, struct ethtool_coalesce *c)
{
    memset(c, 0, sizeof *c);
    c->cmd = ETHTOOL_GCOALESCE;
    return ethtool_ioctl(ifname, c);
}

/* "driver" (ETHTOOL_GDRVINFO: "virtio_net", "veth", "uml-vector", ...) and
 * "bus_info" of ifname into o; null when the ioctl fails. */
static void add_driver(cJSON *o, const char *ifname)
{
    struct ethtool_drvinfo d;
    memset(&d, 0, sizeof d);
    d.cmd = ETHTOOL_GDRVINFO;
    int ok = ifname && ifname[0] && ethtool_ioctl(ifname, &d) == 0;
    d.driver[sizeof d.driver - 1] = d.bus_info[sizeof d.bus_info - 1] = '\0';
    cJSON_AddItemToObject(o, "driver", ok && d.driver[0] ? cJSON_CreateString(d.driver)
                                                        : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "bus_info", ok && d.bus_info[0] ? cJSON_CreateString(d.bus_info)
                                                            : cJSON_CreateNull());
}
#endif

void *p2pb_nic_json(const char *ifname, const char *basis)
{
    cJSON *o = cJSON_CreateObject();
    int ok = ifname && ifname[0];
    cJSON_AddItemToObject(o, "interface", ok ? cJSON_CreateString(ifname) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "interface_basis",
                          ok && basis ? cJSON_CreateString(basis) : cJSON_CreateNull());
    int err = ok ? ENOTSUP : ENODEV;
#ifdef __linux__
    add_driver(o, ok ? ifname : NULL);
    struct ethtool_coalesce c;
    if (ok && (err = read_coalesce(ifname, &c)) == 0) {
        cJSON *k = cJSON_AddObjectToObject(o, "coalesce");
        cJSON_AddNumberToObject(k, "rx_usecs", c.rx_coalesce_usecs);
        cJSON_AddNumberToObject(k, "rx_frames", c.rx_max_coalesced_frames);
        cJSON_AddNumberToObject(k, "tx_usecs", c.tx_coalesce_usecs);
        cJSON_AddNumberToObject(k, "tx_frames", c.tx_max_coalesced_frames);
        cJSON_AddBoolToObject(k, "adaptive_rx", c.use_adaptive_rx_coalesce != 0);
        cJSON_AddBoolToObject(k, "adaptive_tx", c.use_adaptive_tx_coalesce != 0);
        return o;
    }
#endif
    cJSON_AddNullToObject(o, "coalesce");
    cJSON_AddStringToObject(o, "coalesce_error", strerror(err));
    return o;
}
