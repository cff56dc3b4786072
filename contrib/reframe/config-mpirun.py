# SPDX-License-Identifier: MIT
"""A ReFrame configuration for one machine whose partition starts MPI programs with
`mpirun -np N` (ReFrame's mpirun launcher): the tests of p2pbench_checks.py then run
with -S launch=partition (docs/frameworks.md). A site's own configuration names its
systems, partitions (scheduler slurm, launcher srun, ...) and environments instead."""

site_configuration = {
    'systems': [{
        'name': 'localmpi',
        'descr': 'this machine; MPI programs started by the partition launcher (mpirun)',
        'hostnames': ['.*'],
        'partitions': [{
            'name': 'cpu',
            'scheduler': 'local',
            'launcher': 'mpirun',
            'environs': ['plain'],
        }],
    }],
    'environments': [{'name': 'plain'}],
}
