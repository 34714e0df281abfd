# What a program can read about how it was started, one fact per line, for ExactStartTest to compare a direct start
# with a start under sidecar-wait: its signal state, limits, descriptors, directory, umask, environment, arguments,
# session and process group. Plain Perl, no module: it changes none of these before it reads them.
open(my $status, '<', '/proc/self/status') or die;
for (<$status>) { print "status $1 $2\n" if /^(SigBlk|SigIgn|Umask):\s*(\S+)/; }
close($status);
open(my $limits, '<', '/proc/self/limits') or die;
for (<$limits>) { s/\s+$//; print "limit $_\n" unless /^Limit/; }
close($limits);
opendir(my $d, '/proc/self/fd') or die;
my $own = fileno($d);
print "fd $_\n" for sort { $a <=> $b } grep { /^\d+$/ && $_ != $own } readdir($d);
closedir($d);
print "cwd " . readlink('/proc/self/cwd') . "\n";
print "env $_=$ENV{$_}\n" for sort keys %ENV;
open(my $cmdline, '<', '/proc/self/cmdline') or die;
print "argv " . join('|', split(/\0/, do { local $/; <$cmdline> })) . "\n";
open(my $stat, '<', '/proc/self/stat') or die;
my @stat = split(' ', (split(/\) /, do { local $/; <$stat> }))[-1]);
print "group $stat[2]\nsession $stat[3]\n";
