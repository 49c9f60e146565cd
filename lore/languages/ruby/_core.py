"""The method names of Ruby's core and standard classes (``Object``/``Kernel``, ``String``, ``Symbol``,
``Integer``/``Float``/``Numeric``, ``Array``, ``Hash``, ``Enumerable``, ``Range``, ``IO``/``File``,
``Time``, ``URI::Generic``, ``StringIO``, ``Set``, ``Proc``, ``Exception``, ``Thread``/``Mutex``).

A call ``x.m`` on a receiver whose type Ruby code never states is most likely one of these when ``m``
is one of these names (``uri.port``, ``b.bytesize``, ``env.fetch``): such a call is never bound to a
repository method by its name alone. A fact of the language, listed once here.
"""

from __future__ import annotations

CORE_METHOD_NAMES = frozenset("""
! != !~ % & * ** + +@ - -@ / < << <= <=> == === =~ > >= >> [] []= ^ | ~
__id__ __send__ abs add add? all? allbits? any? anybits? append arity ascii_only? assoc at atime
autoclose? b backtrace basename begin between? binmode binread binwrite bit_length blksize block_given?
byteindex byterindex bytes bytesize byteslice call capitalize capitalize! casecmp casecmp? ceil center
chain chars chmod chomp chomp! chop chop! chown chr chunk chunk_while clamp class clear clone close
close_read close_write closed? codepoints coerce collect collect! collect_concat combination compact
compact! compare_by_identity concat count crypt ctime curry cycle day default default= default_proc
define_singleton_method delete delete! delete_at delete_if delete_prefix delete_suffix denominator
detect difference dig digits directory? dirname display div divmod downcase downcase! downto drop
drop_while dump dup each each_byte each_char each_cons each_entry each_index each_key each_line
each_pair each_slice each_value each_with_index each_with_object empty? encode encode! encoding
end end_with? entries eof eof? eql? equal? even? exception exclude_end? exist? exists? expand_path
extend extname fdiv fetch fetch_values fileno fill filter filter! filter_map find find_all find_index
finite? first flat_map flatten flatten! flock floor flush force_encoding fragment freeze frozen? fsync
gcd getbyte getc gets group_by gsub gsub! has_key? has_value? hash hex host hostname hour include?
index infinite? inject insert inspect instance_of? instance_variable_get instance_variable_set
instance_variables instance_variable_defined? instance_variables integer? intersect? intersection
invert is_a? isdst itself join keep_if key key? keys kind_of? lambda? last lazy lcm length lineno
lines ljust lstrip lstrip! map map! match match? max max_by mday member? merge merge! message method
methods min min_by minmax minute mkdir mode modulo month mtime name nan? negative?
next next! nil? none? nonzero? now nsec numerator object_id oct odd? one? opaque ord pack parameters
partition password path pathname permutation pid pop port pos pos= positive? pred prepend print printf
private_methods product public_methods public_send push putc puts query rassoc rationalize read
read_nonblock readbyte readchar readline readlines readpartial real? reduce rehash reject reject!
remainder reopen repeated_combination repeated_permutation replace request_uri respond_to? reverse
reverse! reverse_each rewind rindex rjust rotate rotate! round rpartition rstrip rstrip! sample scan
scheme sec seek select select! send set_encoding shift shuffle shuffle! singleton_class singleton_methods
size slice slice! slice_when sort sort! sort_by sort_by! split squeeze squeeze! start_with? step
store strftime string strip strip! sub sub! subtract succ succ! sum superset? swapcase swapcase! sync
sync= synchronize sysread sysseek syswrite take take_while tally tap tell then times to_a to_ary to_c
to_enum to_f to_h to_hash to_i to_int to_io to_path to_proc to_r to_s to_set to_str to_sym tr tr!
tr_s transform_keys transform_keys! transform_values transform_values! transpose truncate try_convert
tv_sec tv_usec unicode_normalize union uniq uniq! unlink unpack unpack1 unshift upcase upcase! update
upto user userinfo usec utc utc? valid_encoding? value? values values_at wday write write_nonblock
yday year yield_self zero? zip zone
lock unlock locked? owned? join alive? kill wakeup status value raise abort_on_exception
full_message cause backtrace_locations set_backtrace
readable? writable? executable? file? size? symlink? zero? ftype realpath relative? absolute?
children each_child entries glob
""".split())
