# A stand-in for the container runtime, which starts a container's entrypoint with whatever it was handed: some
# signals ignored (HUP, USR2) and every other at its default (whatever this test run inherited), exactly these
# blocked (USR1, SIGRTMIN+6 = 40), descriptors beyond 0-2 open (3 and 7). Then
# it execs its arguments, exactly as a runtime would. With INHERITED_FILE set it first writes down what it hands
# on (descriptors; SigIgn; SigBlk), for ExecWithFfm, whose JVM changes some of it before main.
use POSIX ();
$^F = 255;  # descriptors up to 255 stay open across an exec (perl closes the others)
for my $name (keys %SIG) {
  next if $name =~ /^(KILL|STOP|__WARN__|__DIE__)$/;
  $SIG{$name} = 'DEFAULT';
}
$SIG{HUP} = 'IGNORE';
$SIG{USR2} = 'IGNORE';
POSIX::sigprocmask(POSIX::SIG_SETMASK(), POSIX::SigSet->new(POSIX::SIGUSR1(), 40)) or die "sigprocmask: $!";
open(my $null, '<', '/dev/null') or die;
POSIX::dup2(fileno($null), 7) or die;
if ($ENV{INHERITED_FILE}) {
  opendir(my $d, '/proc/self/fd') or die;
  my $own = fileno($d);
  my @fds = sort { $a <=> $b } grep { /^\d+$/ && $_ != $own } readdir($d);
  closedir($d);
  open(my $status, '<', '/proc/self/status') or die;
  my %mask = map { /^(Sig\w+):\s*(\w+)/ ? ($1, $2) : () } <$status>;
  close($status);
  open(my $out, '>', $ENV{INHERITED_FILE}) or die;
  # perl ignores SIGFPE itself and restores it before an exec: leave it out
  my $ign = sprintf("%016x", hex($mask{SigIgn}) & ~(1 << 7));
  print $out join(",", @fds) . ";$ign;$mask{SigBlk}";
  close($out);
}
exec { $ARGV[0] } @ARGV or die "exec: $!";
