!> autosched MPI loops, Fortran interface: the C interface (autosched_mpi.h)
!> through ISO_C_BINDING, as subroutines whose last argument is a status
!> (AUTOSCHED_MPI_OK or an error code; autosched_mpi_last_error() says why).
!>
!>   use autosched_mpi
!>   type(autosched_mpi_loop) :: loop
!>   integer(int64) :: start, size, iters
!>   call autosched_mpi_setup(MPI_COMM_WORLD, "pi", loop, ierr)   ! mpi_f08: MPI_COMM_WORLD%MPI_VAL
!>   call autosched_mpi_start_loop(loop, 1_int64, n + 1, ierr)    ! iterations 1 .. n
!>   do
!>     call autosched_mpi_terminated(loop, done, ierr)
!>     if (done .or. ierr /= AUTOSCHED_MPI_OK) exit
!>     call autosched_mpi_start_chunk(loop, start, size, ierr)
!>     do i = start, start + size - 1 ...
!>     call autosched_mpi_end_chunk(loop, ierr)
!>   end do
!>   call autosched_mpi_end_loop(loop, iters, seconds, ierr)
!>   call autosched_mpi_finalize(loop, ierr)
!>
!> The communicator is its Fortran integer handle (the `mpi` module's
!> MPI_COMM_WORLD, or the MPI_VAL component of an mpi_f08 type(MPI_Comm)),
!> converted with MPI_Comm_f2c on the C side; so this module uses no MPI
!> module and works with either. Ranges are half open: [first, last_exclusive).
module autosched_mpi
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_size_t, c_double, c_char, c_ptr, c_null_ptr, c_null_char, &
                                         c_associated, c_f_pointer
  implicit none
  private

  integer, parameter, public :: AUTOSCHED_MPI_OK = 0       !< success
  integer, parameter, public :: AUTOSCHED_MPI_EINVAL = 1   !< a bad argument (empty name, unknown schedule, ...)
  integer, parameter, public :: AUTOSCHED_MPI_ESTATE = 2   !< a call out of order
  integer, parameter, public :: AUTOSCHED_MPI_EFAILED = 3  !< anything else
  integer, parameter, public :: AUTOSCHED_MPI_EABORTED = 4 !< end_loop: a rank failed; aborted on every rank

  !> One loop of the program on this rank (the C handle).
  type, public :: autosched_mpi_loop
    type(c_ptr) :: handle = c_null_ptr
  end type autosched_mpi_loop

  !> What the latest successful end_loop measured.
  type, public :: autosched_mpi_loop_result
    character(len=32) :: technique = ''   !< e.g. "fac2"
    character(len=16) :: protocol = ''    !< "master-worker" or "rma"
    real(c_double) :: loop_seconds = 0
    integer(c_int64_t) :: iterations = 0, own_iterations = 0, own_chunks = 0
    real(c_double) :: own_work_seconds = 0, percent_imbalance = 0
  end type autosched_mpi_loop_result

  ! The C struct autosched_mpi_loop_result.
  type, bind(c) :: c_loop_result
    character(kind=c_char) :: technique(32)
    character(kind=c_char) :: protocol(16)
    real(c_double) :: loop_seconds
    integer(c_int64_t) :: iterations, own_iterations, own_chunks
    real(c_double) :: own_work_seconds, percent_imbalance
  end type c_loop_result

  public :: autosched_mpi_setup, autosched_mpi_set_schedule, autosched_mpi_set_parameters, autosched_mpi_start_loop, &
            autosched_mpi_terminated, &
            autosched_mpi_start_chunk, autosched_mpi_end_chunk, autosched_mpi_fail, autosched_mpi_end_loop, &
            autosched_mpi_last_result, autosched_mpi_finalize, autosched_mpi_last_error

  interface
    integer(c_int) function c_setup(comm, name, loop) bind(c, name='autosched_mpi_setup_fint')
      import :: c_int, c_char, c_ptr
      integer(c_int), value :: comm
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr), intent(out) :: loop
    end function c_setup
    integer(c_int) function c_set_schedule(loop, schedule) bind(c, name='autosched_mpi_set_schedule')
      import :: c_int, c_char, c_ptr
      type(c_ptr), value :: loop
      character(kind=c_char), intent(in) :: schedule(*)
    end function c_set_schedule
    integer(c_int) function c_set_parameters(loop, protocol, request_when, break_after) &
        bind(c, name='autosched_mpi_set_parameters')
      import :: c_int, c_int64_t, c_char, c_ptr
      type(c_ptr), value :: loop
      character(kind=c_char), intent(in) :: protocol(*)
      integer(c_int64_t), value :: request_when, break_after
    end function c_set_parameters
    integer(c_int) function c_start_loop(loop, first, last_exclusive) bind(c, name='autosched_mpi_start_loop')
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: loop
      integer(c_int64_t), value :: first, last_exclusive
    end function c_start_loop
    integer(c_int) function c_terminated(loop, done) bind(c, name='autosched_mpi_terminated')
      import :: c_int, c_ptr
      type(c_ptr), value :: loop
      integer(c_int), intent(out) :: done
    end function c_terminated
    integer(c_int) function c_start_chunk(loop, start, size) bind(c, name='autosched_mpi_start_chunk')
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: loop
      integer(c_int64_t), intent(out) :: start, size
    end function c_start_chunk
    integer(c_int) function c_end_chunk(loop) bind(c, name='autosched_mpi_end_chunk')
      import :: c_int, c_ptr
      type(c_ptr), value :: loop
    end function c_end_chunk
    integer(c_int) function c_fail(loop, message) bind(c, name='autosched_mpi_fail')
      import :: c_int, c_char, c_ptr
      type(c_ptr), value :: loop
      character(kind=c_char), intent(in) :: message(*)
    end function c_fail
    integer(c_int) function c_end_loop(loop, iterations, work_seconds) bind(c, name='autosched_mpi_end_loop')
      import :: c_int, c_int64_t, c_double, c_ptr
      type(c_ptr), value :: loop
      integer(c_int64_t), intent(out) :: iterations
      real(c_double), intent(out) :: work_seconds
    end function c_end_loop
    integer(c_int) function c_last_result(loop, result) bind(c, name='autosched_mpi_last_result')
      import :: c_int, c_ptr, c_loop_result
      type(c_ptr), value :: loop
      type(c_loop_result), intent(out) :: result
    end function c_last_result
    integer(c_int) function c_finalize(loop) bind(c, name='autosched_mpi_finalize')
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: loop
    end function c_finalize
    type(c_ptr) function c_last_error() bind(c, name='autosched_mpi_last_error')
      import :: c_ptr
    end function c_last_error
    integer(c_size_t) function c_strlen(s) bind(c, name='strlen')
      import :: c_size_t, c_ptr
      type(c_ptr), value :: s
    end function c_strlen
  end interface

contains

  !> DLS_Setup: a handle for loop `name` over the communicator `comm` (a Fortran handle). Not collective.
  subroutine autosched_mpi_setup(comm, name, loop, status)
    integer, intent(in) :: comm
    character(len=*), intent(in) :: name
    type(autosched_mpi_loop), intent(out) :: loop
    integer, intent(out) :: status
    status = int(c_setup(int(comm, c_int), trim(name) // c_null_char, loop%handle))
  end subroutine autosched_mpi_setup

  !> The schedule of the next instances ("fac2", "auto", ...); '' for the environment's, else auto.
  subroutine autosched_mpi_set_schedule(loop, schedule, status)
    type(autosched_mpi_loop), intent(in) :: loop
    character(len=*), intent(in) :: schedule
    integer, intent(out) :: status
    status = int(c_set_schedule(loop%handle, trim(schedule) // c_null_char))
  end subroutine autosched_mpi_set_schedule

  !> DLS_Parameters_Setup's protocol knobs: protocol ('auto', 'master-worker', 'rma'; '' = 'auto'),
  !> request_when and break_after (0: the defaults). Optional: every one has a default.
  subroutine autosched_mpi_set_parameters(loop, protocol, request_when, break_after, status)
    type(autosched_mpi_loop), intent(in) :: loop
    character(len=*), intent(in) :: protocol
    integer(c_int64_t), intent(in) :: request_when, break_after
    integer, intent(out) :: status
    status = int(c_set_parameters(loop%handle, trim(protocol) // c_null_char, request_when, break_after))
  end subroutine autosched_mpi_set_parameters

  !> DLS_StartLoop, collective: the iterations first .. last_exclusive - 1.
  subroutine autosched_mpi_start_loop(loop, first, last_exclusive, status)
    type(autosched_mpi_loop), intent(in) :: loop
    integer(c_int64_t), intent(in) :: first, last_exclusive
    integer, intent(out) :: status
    status = int(c_start_loop(loop%handle, first, last_exclusive))
  end subroutine autosched_mpi_start_loop

  !> DLS_Terminated: done is .true. once this rank receives no more chunks.
  subroutine autosched_mpi_terminated(loop, done, status)
    type(autosched_mpi_loop), intent(in) :: loop
    logical, intent(out) :: done
    integer, intent(out) :: status
    integer(c_int) :: d
    d = 1
    status = int(c_terminated(loop%handle, d))
    done = d /= 0
  end subroutine autosched_mpi_terminated

  !> DLS_StartChunk: the iterations start .. start + size - 1 (size 0: terminated).
  subroutine autosched_mpi_start_chunk(loop, start, size, status)
    type(autosched_mpi_loop), intent(in) :: loop
    integer(c_int64_t), intent(out) :: start, size
    integer, intent(out) :: status
    status = int(c_start_chunk(loop%handle, start, size))
  end subroutine autosched_mpi_start_chunk

  !> DLS_EndChunk.
  subroutine autosched_mpi_end_chunk(loop, status)
    type(autosched_mpi_loop), intent(in) :: loop
    integer, intent(out) :: status
    status = int(c_end_chunk(loop%handle))
  end subroutine autosched_mpi_end_chunk

  !> This rank cannot go on: every rank's end_loop returns AUTOSCHED_MPI_EABORTED with `message`.
  subroutine autosched_mpi_fail(loop, message, status)
    type(autosched_mpi_loop), intent(in) :: loop
    character(len=*), intent(in) :: message
    integer, intent(out) :: status
    status = int(c_fail(loop%handle, trim(message) // c_null_char))
  end subroutine autosched_mpi_fail

  !> DLS_EndLoop, collective: this rank's iterations and time inside its chunks.
  subroutine autosched_mpi_end_loop(loop, iterations, work_seconds, status)
    type(autosched_mpi_loop), intent(in) :: loop
    integer(c_int64_t), intent(out) :: iterations
    real(c_double), intent(out) :: work_seconds
    integer, intent(out) :: status
    status = int(c_end_loop(loop%handle, iterations, work_seconds))
  end subroutine autosched_mpi_end_loop

  !> What the latest successful end_loop measured.
  subroutine autosched_mpi_last_result(loop, result, status)
    type(autosched_mpi_loop), intent(in) :: loop
    type(autosched_mpi_loop_result), intent(out) :: result
    integer, intent(out) :: status
    type(c_loop_result) :: r
    status = int(c_last_result(loop%handle, r))
    if (status /= AUTOSCHED_MPI_OK) return
    result%technique = from_c_chars(r%technique)
    result%protocol = from_c_chars(r%protocol)
    result%loop_seconds = r%loop_seconds
    result%iterations = r%iterations
    result%own_iterations = r%own_iterations
    result%own_chunks = r%own_chunks
    result%own_work_seconds = r%own_work_seconds
    result%percent_imbalance = r%percent_imbalance
  end subroutine autosched_mpi_last_result

  !> DLS_Finalize: frees the handle (AUTOSCHED_MPI_ESTATE, handle kept, while an instance runs).
  subroutine autosched_mpi_finalize(loop, status)
    type(autosched_mpi_loop), intent(inout) :: loop
    integer, intent(out) :: status
    status = int(c_finalize(loop%handle))
  end subroutine autosched_mpi_finalize

  !> This thread's last error message ('' when none).
  function autosched_mpi_last_error() result(message)
    character(len=:), allocatable :: message
    type(c_ptr) :: p
    character(kind=c_char), pointer :: chars(:)
    integer :: n, i
    p = c_last_error()
    if (.not. c_associated(p)) then
      message = ''
      return
    end if
    n = int(c_strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate (character(len=n) :: message)
    do i = 1, n
      message(i:i) = chars(i)
    end do
  end function autosched_mpi_last_error

  pure function from_c_chars(chars) result(text)
    character(kind=c_char), intent(in) :: chars(:)
    character(len=size(chars)) :: text
    integer :: i
    text = ''
    do i = 1, size(chars)
      if (chars(i) == c_null_char) exit
      text(i:i) = chars(i)
    end do
  end function from_c_chars

end module autosched_mpi
