/* SPDX-License-Identifier: MIT */
/*
 * import: convert IMB/PMB/OSU text logs into results files (import/).
 */
#include "args.h"
#include "import/import.h"

enum p2pb_status p2pb_cmd_import(struct p2pb_args *a, char *err, size_t errlen)
{
    if (a->nfiles[0] == 0)
        return p2pb_fail(P2PB_EUSAGE, err, errlen,
                         "import needs at least one log file" P2PB_TRY_HELP);
    /* P2PB_EIO, P2PB_EFORMAT, P2PB_ERANGE (too many outputs), P2PB_ENOMEM: all exit 1 */
    return p2pb_import_logs(a->files[0], a->nfiles[0], a->output ? a->output : ".", a->force,
                            a->max_file_bytes, stderr, err, p2pb_cmd_errlen(errlen));
}

static const unsigned char import_options[] = {RO_OUTPUT, RO_FORCE};

const struct p2pb_report_cmd p2pb_cmd_import_def = {
    .name = "import",
    .run = p2pb_cmd_import,
    .expand_dirs = 0,
    .synopsis = "LOG... [-o DIR] [--force]",
    .help = "convert IMB/PMB/OSU text logs into results files in DIR (default .)",
    .verbs = NULL,
    .options = import_options,
    .noptions = sizeof import_options,
};
