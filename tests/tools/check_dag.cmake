# `autosched dag simulate|bench`, run as users run it: a small simulation
# prints makespans and the bound and writes its schedule; a graph file is
# read; a Gantt chart without gnuplot is a warning, not a failure; bench
# writes both tables and its results do not depend on --jobs; bad option
# values and malformed graph files are rejected naming the value or line.
set(dir ${WORK}/dag-check)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
set(ENV{AUTOSCHED_DB} off)
include(${CMAKE_CURRENT_LIST_DIR}/../check_commands.cmake)

# READYS's HEFT on its Cholesky graph at T = 4, no noise: 75 (its reference).
run(0 ${CLI} dag simulate --graph cholesky --tiles 4 --platform 2cpu+2gpu --readys-compat
    --scheduler readys-heft,mct --csv ${dir}/schedule.csv)
expect("${out}" "cholesky T=4 \\(readys\\) on 2cpu\\+2gpu: 20 tasks, 30 edges")
expect("${out}" "lower bound [0-9.]+ \\(critical path [0-9.]+, area [0-9.]+\\)")
expect("${out}" "\n  readys-heft +75\\.0 +\\+[0-9.]+% +[0-9]+ +[0-9]+ +0\n")
expect("${out}" "\n  mct +77\\.0 ")
file(STRINGS ${dir}/schedule.csv rows)
list(LENGTH rows count)
if(NOT count EQUAL 41)  # the header and 20 tasks per scheduler
  message(FATAL_ERROR "schedule.csv: ${count} lines, expected 41")
endif()
list(GET rows 0 header)
expect("${header}" "^scheduler,task,kernel,processor,kind,start,end$")
expect("${rows}" "readys-heft,0,POTRF,0,gpu,0,11;")

# A graph file: three tasks, one kernel the readys table knows.
file(WRITE ${dir}/mine.dag "# autosched task graph v1\ngraph mine\nkernels GEMM POTRF\ntask 0 POTRF\ntask 1 GEMM\n"
                           "task 2 GEMM\nedge 0 1 8\nedge 0 2 8\n")
run(0 ${CLI} dag simulate --graph ${dir}/mine.dag --platform 1cpu+1gpu --scheduler mct --sigma 0.2 --seed 3)
expect("${out}" "mine on 1cpu\\+1gpu: 3 tasks, 2 edges; durations readys \\(units\\); noise σ=0.2")
expect("${out}" "\n  mct +[0-9]+\\.[0-9] ")

# No gnuplot on the PATH: the script and data are written, a warning says so.
run(0 ${CMAKE_COMMAND} -E env PATH=${dir}/no-bin ${CLI} dag simulate --tiles 3 --scheduler heft --gantt ${dir}/g.png)
expect("${err}" "warning: gnuplot not found: wrote .*g.gp")
if(NOT EXISTS ${dir}/g.gp OR NOT EXISTS ${dir}/g.dat)
  message(FATAL_ERROR "--gantt without gnuplot: g.gp and g.dat expected")
endif()

# bench: both tables, and the same numbers on one thread as on two.
set(sweep --graphs cholesky,qr --tiles 3..4 --platforms 2cpu+2gpu,4cpu --sigmas 0,0.3 --samples 3 --no-progress)
run(0 ${CLI} dag bench ${sweep} --jobs 1 --out ${dir}/bench1)
run(0 ${CLI} dag bench ${sweep} --jobs 2 --out ${dir}/bench2)
file(READ ${dir}/bench1/makespans.csv one)
file(READ ${dir}/bench2/makespans.csv two)
if(NOT one STREQUAL two)
  message(FATAL_ERROR "dag bench: makespans.csv differs between --jobs 1 and --jobs 2")
endif()
expect("${one}" "^graph,tiles,platform,sigma,scheduler,samples,mean,stddev,min,max,lower_bound,mean_vs_bound_pct\n")
expect("${one}" "\nqr,4,4cpu,0.3,heteroprio,3,[0-9.]+,[0-9.]+,")
file(READ ${dir}/bench1/makespans.md md)
expect("${md}" "\n## cholesky on 2cpu\\+2gpu\n\n\\| T \\| σ \\| heft \\|")
expect("${md}" "\n\\| 3 \\| 0\\.3 \\| [^\n]*\\*\\*[0-9.]+ ± [0-9.]+\\*\\*")
# A picture per graph × platform at its largest T: makespan over the bound against σ.
file(STRINGS ${dir}/bench1/sigma-qr-4cpu.dat sigma_rows)
list(LENGTH sigma_rows n)
list(GET sigma_rows 0 header)
if(NOT n EQUAL 3 OR NOT header MATCHES "^sigma\t\"heft\"\t")
  message(FATAL_ERROR "sigma-qr-4cpu.dat: ${n} lines, header '${header}'")
endif()
file(READ ${dir}/bench1/sigma-cholesky-2cpu_2gpu.gp sigma_script)
expect("${sigma_script}" "cholesky T=4 on 2cpu\\+2gpu: mean makespan / lower bound")

# Bad values name the option, the value and what is accepted.
run(2 ${CLI} dag simulate --seed -1)
expect("${err}" "--seed: '-1': expected an integer in \\[0, 18446744073709551615\\]")
run(1 ${CLI} dag simulate --platform 2tpu)
expect("${err}" "--platform=2tpu: .*expected counts of cpu and gpu joined by '\\+', e.g. 2cpu\\+2gpu")
run(1 ${CLI} dag simulate --scheduler heft,frob)
expect("${err}" "--scheduler=heft,frob: scheduler 'frob': expected one of heft, readys-heft")
run(1 ${CLI} dag simulate --graph ${dir}/missing.dag)
expect("${err}" "--graph=.*missing.dag: expected cholesky, lu, qr or a graph file")
run(1 ${CLI} dag bench --sigmas 0,x --out ${dir}/unused)
expect("${err}" "--sigmas=0,x: expected noise levels: finite numbers >= 0")
run(1 ${CLI} dag bench --tiles 9..4 --out ${dir}/unused)
expect("${err}" "--tiles=9..4: expected ranges A..B with A <= B")
run(1 ${CLI} dag bench --platforms 4cpu,0gpu --out ${dir}/unused)
expect("${err}" "--platforms=4cpu,0gpu: ")
# Sizes the options accept but this machine cannot hold: refused before
# anything is allocated, with the estimate (was bad_alloc, exit 134).
run(1 ${CLI} dag simulate --graph cholesky --tiles 4096)
expect("${err}" "--tiles=4096: cholesky with 4096×4096 tiles \\(1.15e\\+10 tasks\\): about [0-9.]+ TiB of memory needed, [0-9.]+ [KMGT]iB available")
run(1 ${CLI} dag bench --graphs lu --tiles 3000..3001 --out ${dir}/unused)
expect("${err}" "--tiles=3000..3001: the factorisation graphs of --graphs=lu on [0-9]+ platform\\(s\\): about [0-9.]+ TiB")
run(1 ${CLI} dag train --tiles 4..4096 --output ${dir}/unused.model)
expect("${err}" "--tiles=4..4096: training graphs of 4096×4096 tiles: about [0-9.]+ TiB of memory needed")
run(1 ${CLI} dag simulate --durations mirage --graph qr)
expect("${err}" "--durations=mirage: duration table 'mirage' has no kernel GEQRT")

# Special files where a file is read: refused at once, naming what they are
# (a FIFO blocked the command; /dev/zero was read to 700 MB).
execute_process(COMMAND mkfifo ${dir}/fifo RESULT_VARIABLE made)
if(NOT made EQUAL 0)
  message(FATAL_ERROR "mkfifo ${dir}/fifo failed")
endif()
run(1 ${CLI} dag simulate --durations ${dir}/fifo --graph qr)
expect("${err}" "duration table '[^']*fifo': it is a FIFO, not a regular file")
run(1 ${CLI} dag simulate --durations /dev/zero --graph qr)
expect("${err}" "duration table '/dev/zero': it is a character device, not a regular file")
foreach(special "${dir}/fifo;a FIFO" "/dev/zero;a character device" "${dir};a directory")
  list(GET special 0 path)
  list(GET special 1 kind)
  run(1 ${CLI} dag simulate --graph ${path})
  expect("${err}" "--graph=[^:]*: expected cholesky, lu, qr or a graph file [(][^)]*[)]; it is ${kind}")
endforeach()
# ... and where a command writes: refused before the file is opened (a FIFO
# blocked the command; /dev/full took the schedule and lost it).
foreach(special "${dir}/fifo;a FIFO" "/dev/full;a character device")
  list(GET special 0 path)
  list(GET special 1 kind)
  run(1 ${CLI} dag simulate --graph qr --tiles 3 --csv ${path})
  expect("${err}" "--csv=[^:]*: it is ${kind}, not a regular file")
  run(1 ${CLI} dag simulate --graph qr --tiles 3 --scheduler mct --gantt ${path})
  expect("${err}" "--gantt=[^:]*: it is ${kind}, not a regular file")
endforeach()

# A malformed graph file names its line.
file(WRITE ${dir}/bad.dag "# autosched task graph v1\nkernels GEMM\ntask 0 GEMM\ntask 1 POTRF\n")
run(1 ${CLI} dag simulate --graph ${dir}/bad.dag)
expect("${err}" "bad.dag:4: unknown kernel 'POTRF'; expected one of the kernels of line 2: GEMM")
file(WRITE ${dir}/cycle.dag "# autosched task graph v1\nkernels GEMM\ntask 0 GEMM\ntask 1 GEMM\nedge 0 1\nedge 1 0\n")
run(1 ${CLI} dag bench --graphs ${dir}/cycle.dag --samples 1 --out ${dir}/unused)
expect("${err}" "cycle.dag:6: edge 1 -> 0 closes the cycle")

# `dag run`: a real factorisation on worker threads, verified, with its
# measured schedule; without the executor in this build, a clear error.
if(DAG_EXEC)
  run(0 ${CLI} dag run --graph qr --tiles 3 --tile-size 16 --workers 2 --scheduler mct-prio,heteroprio --runs 2
      --csv ${dir}/run.csv)
  expect("${out}" "\n  mct-prio +[0-9.]+ +[0-9.]+ +[0-9.e+-]+ +2/2 ")
  expect("${out}" "\n  heteroprio +[0-9.]+ +[0-9.]+ +[0-9.e+-]+ +2/2 ")
  file(STRINGS ${dir}/run.csv run_rows)
  list(LENGTH run_rows run_count)
  if(NOT run_count EQUAL 29)  # the header and 14 tasks per scheduler
    message(FATAL_ERROR "run.csv: ${run_count} lines, expected 29")
  endif()
  run(1 ${CLI} dag run --graph mine.dag)
  expect("${err}" "--graph")
  run(1 ${CLI} dag run --workers 0)
  expect("${err}" "--workers")
  run(1 ${CLI} dag run --graph lu --tiles 64 --tile-size 4096)
  expect("${err}" "--tile-size=4096: a 64×64-tile lu of order n = 262144: about [0-9.]+ TiB of memory needed")
  # GPUs asked for where there is none: refused before the calibration.
  execute_process(COMMAND nvidia-smi -L RESULT_VARIABLE no_gpu OUTPUT_QUIET ERROR_QUIET)
  if(NOT no_gpu EQUAL 0)
    run(1 ${CLI} dag run --tiles 3 --gpus 1)
    expect("${err}" "--gpus=1: the CUDA runtime sees no GPU here; run with --gpus 0")
    if(err MATCHES "calibrating")
      message(FATAL_ERROR "dag run --gpus 1 calibrated before refusing:\n${err}")
    endif()
  endif()
else()
  run(1 ${CLI} dag run --tiles 3)
  expect("${err}" "no executor")
endif()

# The learned policy: readys:<model> loads the libtorch module on first use;
# a refused model is one line on stderr and the run goes on under mct-prio.
# Without libtorch in this build, readys is an error saying so.
if(DAG_LEARN)
  run(0 ${CLI} dag simulate --tiles 3 --scheduler readys:${dir}/missing.pt,mct-prio)
  expect("${err}" "autosched: warning: readys model '[^']*missing.pt' refused: the model file is missing; falling back to mct-prio\n")
  expect("${out}" "\n  mct-prio +[0-9.]+ ")  # its numbers under its own name, once
  if("${out}" MATCHES "missing.pt|mct-prio[^\n]*\n  mct-prio")
    message(FATAL_ERROR "a refused model's fallback is listed under the model's name or twice:\n${out}")
  endif()
  run(1 ${CLI} dag simulate --tiles 3 --scheduler readys)
  expect("${err}" "readys needs a model: readys:<file>")
  # dag train, the smoke version of bench/dag/train-models.sh: a few
  # episodes, a model file and its sidecar, then the model schedules.
  run(0 ${CLI} dag train --graph cholesky --tiles 3..4 --dagger-rounds 1 --imitation-episodes 2 --imitation-epochs 1
      --iterations 2 --episodes 2 --validate-every 1 --validation-samples 1 --output ${dir}/tiny.model --no-progress)
  expect("${out}" "model: [^\n]*tiny.model")
  expect("${out}" "best \\(kept\\) +[0-9.]+ after 2 PPO iterations")
  file(READ ${dir}/tiny.model.json sidecar)
  expect("${sidecar}" "dag train --graph cholesky")
  run(0 ${CLI} dag simulate --tiles 4 --scheduler readys:${dir}/tiny.model)
  expect("${out}" "\n  readys:[^ ]*tiny.model +[0-9.]+ ")
  run(1 ${CLI} dag train --tiles 8..4 --output ${dir}/bad.model)
  expect("${err}" "tiles 8..4: need 2 <= min <= max")
  run(0 ${CLI} dag simulate --tiles 4 --scheduler readys:cholesky)  # a shipped model, by name
else()
  run(1 ${CLI} dag train --output ${dir}/m.model)
  expect("${err}" "this build has no libtorch")
  run(1 ${CLI} dag simulate --tiles 3 --scheduler readys:${dir}/missing.pt)
  expect("${err}" "the learned policy needs libtorch")
endif()
file(REMOVE_RECURSE ${dir})
