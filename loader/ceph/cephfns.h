/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_CEPHFNS_H
#define OSDHIST_CEPHFNS_H

/*
 * What osdhist knows of ceph-osd's functions, one row per fact: the
 * functions whose symbols it looks up, and which of them it probes.  The
 * offsets it derives are rows of maps/osdhist.h (OSDHIST_OFFSETS: bpf/
 * reads them too).  A row is the one place its fact is written: binary.c,
 * derive.c, attach.c, --inspect and the unit tests read these lists and
 * nothing else.  It is not always all the work: a function also needs the
 * reader that looks for calls to it (DERIVE_CALLEE), or its own reader in
 * derive_read.c or derive_read_obj.c and a witness in derive_witness.c
 * that uses what it finds (DERIVE_READ); a probe needs the BPF program its
 * ATTACH names; an offset, the steps of "Adding an offset" in
 * docs/how-it-works.md.
 */

/* What a probe or an offset is needed for (the rows' `need`): tracing at
 * all (FEAT_TRACE: a binary without it is refused), or one optional feature
 * (only that feature is refused; binary_lacks() says which fact is missing). */
enum osd_feature {
	FEAT_POOL,	/* -P */
	FEAT_PHASES,	/* --phases */
	FEAT_OPTYPES,	/* per-op-type counting */
	FEAT_CALLS,	/* a call op's class.method (else counted as "call") */
	FEAT_SLOWOPS,	/* the slowest ops' object, PG and client */
	NR_FEATS,	/* the optional ones */
	FEAT_TRACE = NR_FEATS,
};

/* The submit_transaction signature, the same for every backend. */
#define CEPH_SUBMIT_SIG "18submit_transactionERK9hobject_tRK17object_stat_sum_tRK10eversion_t" \
	"OSt10unique_ptrI13PGTransactionSt14default_deleteISA_EES8_S8_OSt6vectorI14" \
	"pg_log_entry_tSaISG_EERSt8optionalI20pg_hit_set_history_tEP7Contextm11" \
	"osd_reqid_tN5boost13intrusive_ptrI9OpRequestEE"

/*
 * The functions looked up in .dynsym, X(id, pretty, derive, symbol):
 *   pretty  how messages, --inspect -v and the witness lists name it
 *   derive  what derive.c does with it: DERIVE_READ(fn), its code is read
 *           and fn (derive_read.c, derive_read_obj.c) finds what it says
 *           about the offsets;
 *           DERIVE_CALLEE, a witness looks for calls to it (its address);
 *           DERIVE_NONE, nothing (only probed, or the version)
 *   symbol  the mangled name, written here only (the same in 16.2, 18.2
 *           and 20.2)
 * tests/unit/gen_derive_fixture.py reads this list (through cpp).
 */
#define OSDHIST_CEPH_FNS(X)						\
	X(CF_MAYBE_INIT_OP_INFO, "OpRequest::maybe_init_op_info", DERIVE_READ(read_mi), \
	  "_ZN9OpRequest18maybe_init_op_infoERK6OSDMap") \
	X(CF_LOG_OP_STATS, "PrimaryLogPG::log_op_stats", DERIVE_READ(read_ls), \
	  "_ZN12PrimaryLogPG12log_op_statsERK9OpRequestmm") \
	X(CF_DEQUEUE_OP, "OSD::dequeue_op", DERIVE_READ(read_dq), \
	  "_ZN3OSD10dequeue_opEN5boost13intrusive_ptrI2PGEENS1_I9OpRequestEERN10ThreadPool8TPHandleE") \
	X(CF_ENQUEUE_OP, "OSD::enqueue_op", DERIVE_READ(read_eq), \
	  "_ZN3OSD10enqueue_opE5spg_tON5boost13intrusive_ptrI9OpRequestEEj") \
	/* OpRequest::OpRequest(Message*, OpTracker*) */ \
	X(CF_OPREQUEST_CTOR, "OpRequest::OpRequest", DERIVE_READ(read_ct), \
	  "_ZN9OpRequestC2EP7MessageP9OpTracker") \
	X(CF_REPOP_COMMIT, "ReplicatedBackend::repop_commit", DERIVE_READ(read_rc), \
	  "_ZN17ReplicatedBackend12repop_commitESt10shared_ptrINS_9RepModifyEE") \
	X(CF_REPMOD_DISPOSE, "shared_ptr<RepModify>::_M_dispose", DERIVE_READ(read_rd), \
	  "_ZNSt23_Sp_counted_ptr_inplaceIN17ReplicatedBackend9RepModifyESaIvELN9__gnu_cxx12_Lock_policyE2EE10_M_disposeEv") \
	X(CF_CHECK_RMW, "OpInfo::check_rmw", DERIVE_READ(read_cr), \
	  "_ZNK6OpInfo9check_rmwEi") \
	X(CF_REP_SUBMIT, "ReplicatedBackend::submit_transaction", DERIVE_READ(read_rep_sub), \
	  "_ZN17ReplicatedBackend" CEPH_SUBMIT_SIG) \
	X(CF_EC_SUBMIT, "ECBackend::submit_transaction", DERIVE_READ(read_ec_sub), \
	  "_ZN9ECBackend" CEPH_SUBMIT_SIG) \
	/* 20.x: it dispatches to both EC backends */ \
	X(CF_ECSWITCH_SUBMIT, "ECSwitch::submit_transaction", DERIVE_READ(read_ecswitch_sub), \
	  "_ZN8ECSwitch" CEPH_SUBMIT_SIG) \
	/* OpInfo::set_from_op(const MOSDOp*, ...) */ \
	X(CF_SET_FROM_OP, "OpInfo::set_from_op", DERIVE_READ(read_sf), \
	  "_ZN6OpInfo11set_from_opEPKN7_mosdop6MOSDOpISt6vectorI5OSDOpSaIS3_EEEERK6OSDMap") \
	X(CF_MOSDOP_CLEAR_BUFFERS, "MOSDOp::clear_buffers", DERIVE_READ(read_cb), \
	  "_ZN7_mosdop6MOSDOpISt6vectorI5OSDOpSaIS2_EEE13clear_buffersEv") \
	X(CF_OSDOP_MERGE_OUT, "OSDOp::merge_osd_op_vector_out_data", DERIVE_READ(read_merge_out), \
	  "_ZN5OSDOp28merge_osd_op_vector_out_dataERSt6vectorIS_SaIS_EERN4ceph6buffer7v15_2_04listE") \
	X(CF_OSDOP_SPLIT_OUT, "OSDOp::split_osd_op_vector_out_data", DERIVE_READ(read_split_out), \
	  "_ZN5OSDOp28split_osd_op_vector_out_dataERSt6vectorIS_SaIS_EERN4ceph6buffer7v15_2_04listE") \
	X(CF_FILL_IN_COPY_GET_NOENT, "PrimaryLogPG::fill_in_copy_get_noent", DERIVE_READ(read_noent), \
	  "_ZN12PrimaryLogPG22fill_in_copy_get_noentERN5boost13intrusive_ptrI9OpRequestEE9hobject_tR5OSDOp") \
	/* OpInfo::set_from_op(const vector<OSDOp>&, ...): 18.x on */ \
	X(CF_SET_FROM_OP_VEC, "OpInfo::set_from_op(vector)", DERIVE_READ(read_sfv), \
	  "_ZN6OpInfo11set_from_opERKSt6vectorI5OSDOpSaIS1_EERK4pg_tRK6OSDMap") \
	/* operator<<(std::ostream&, const OSDOp&) */ \
	X(CF_OSDOP_PRINT, "operator<<(ostream&, OSDOp)", DERIVE_READ(read_op_print), \
	  "_ZlsRSoRK5OSDOp") \
	/* bufferlist internals (src/common/buffer.cc, in ceph-osd itself) */ \
	X(CF_LIST_ITER_IMPL, "buffer::list::iterator_impl<false>::iterator_impl", \
	  DERIVE_READ(read_iter_impl), \
	  "_ZN4ceph6buffer7v15_2_04list13iterator_implILb0EEC2EPS2_j") \
	X(CF_LIST_C_STR, "buffer::list::c_str", DERIVE_READ(read_list_c_str), \
	  "_ZN4ceph6buffer7v15_2_04list5c_strEv") \
	X(CF_LIST_WRITE, "buffer::list::write", DERIVE_READ(read_list_write), \
	  "_ZNK4ceph6buffer7v15_2_04list5writeEiiRSo") \
	X(CF_PTR_C_STR, "buffer::ptr::c_str", DERIVE_READ(read_ptr_c_str), \
	  "_ZN4ceph6buffer7v15_2_03ptr5c_strEv") \
	X(CF_PTR_C_STR_CONST, "buffer::ptr::c_str const", DERIVE_READ(read_ptr_c_str_const), \
	  "_ZNK4ceph6buffer7v15_2_03ptr5c_strEv") \
	X(CF_PTR_AT, "buffer::ptr::operator[]", DERIVE_READ(read_ptr_at), \
	  "_ZN4ceph6buffer7v15_2_03ptrixEj") \
	X(CF_PTR_COPY_OUT, "buffer::ptr::copy_out", DERIVE_READ(read_ptr_copy_out), \
	  "_ZNK4ceph6buffer7v15_2_03ptr8copy_outEjjPc") \
	/* the slowest ops' PG and object: MOSDOp's accessors (inline members:
	 * weak, an LTO build may lack some) and its print() */ \
	X(CF_MOSDOP_PRINT, "MOSDOp::print", DERIVE_READ(read_mosdop_print), \
	  "_ZNK7_mosdop6MOSDOpISt6vectorI5OSDOpSaIS2_EEE5printERSo") \
	X(CF_MOSDOP_GET_SPG, "MOSDOp::get_spg", DERIVE_READ(read_get_spg), \
	  "_ZNK7_mosdop6MOSDOpISt6vectorI5OSDOpSaIS2_EEE7get_spgEv") \
	X(CF_MOSDOP_GET_PG, "MOSDOp::get_pg", DERIVE_READ(read_get_pg), \
	  "_ZNK7_mosdop6MOSDOpISt6vectorI5OSDOpSaIS2_EEE6get_pgEv") \
	X(CF_MOSDOP_FINISH_DECODE, "MOSDOp::finish_decode", DERIVE_READ(read_finish_decode), \
	  "_ZN7_mosdop6MOSDOpISt6vectorI5OSDOpSaIS2_EEE13finish_decodeEv") \
	X(CF_MOSDOP_GET_OLOC, "MOSDOp::get_object_locator", DERIVE_READ(read_get_oloc), \
	  "_ZNK7_mosdop6MOSDOpISt6vectorI5OSDOpSaIS2_EEE18get_object_locatorEv") \
	X(CF_MOSDOP_GET_SNAPID, "MOSDOp::get_snapid", DERIVE_READ(read_get_snapid), \
	  "_ZNK7_mosdop6MOSDOpISt6vectorI5OSDOpSaIS2_EEE10get_snapidEv") \
	X(CF_SPG_PRINT, "operator<<(ostream&, spg_t)", DERIVE_CALLEE, \
	  "_ZlsRSoRK5spg_t") \
	/* the rest of the object, pool:hash:nspace:key:name:snap, as these
	 * print it (src/common/hobject.cc: strong symbols) */ \
	X(CF_HOBJ_PRINT, "operator<<(ostream&, hobject_t)", DERIVE_READ(read_hobj_print), \
	  "_ZlsRSoRK9hobject_t") \
	X(CF_HOBJ_DUMP, "hobject_t::dump", DERIVE_READ(read_hobj_dump), \
	  "_ZNK9hobject_t4dumpEPN4ceph9FormatterE") \
	X(CF_HOBJ_TO_STR, "hobject_t::to_str", DERIVE_READ(read_hobj_to_str), \
	  "_ZNK9hobject_t6to_strB5cxx11Ev") \
	/* list::iterator_impl<true>::copy(unsigned, std::string&) */ \
	X(CF_CITER_COPY_STRING, "buffer::list::iterator_impl<true>::copy", DERIVE_CALLEE, \
	  "_ZN4ceph6buffer7v15_2_04list13iterator_implILb1EE4copyEjRNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE") \
	/* list::iterator::iterator(list*, unsigned) */ \
	X(CF_LIST_ITERATOR, "buffer::list::iterator::iterator", DERIVE_CALLEE, \
	  "_ZN4ceph6buffer7v15_2_04list8iteratorC1EPS2_j") \
	/* list::iterator_impl<false>::copy(unsigned, std::string&) */ \
	X(CF_ITER_COPY_STRING, "buffer::list::iterator_impl<false>::copy", DERIVE_CALLEE, \
	  "_ZN4ceph6buffer7v15_2_04list13iterator_implILb0EE4copyEjRNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE") \
	/* OSDOp::clear_data<vector<OSDOp>> */ \
	X(CF_OSDOP_CLEAR_DATA, "OSDOp::clear_data", DERIVE_CALLEE, \
	  "_ZN5OSDOp10clear_dataISt6vectorIS_SaIS_EEEEvRT_") \
	X(CF_MAY_READ, "OpInfo::may_read", DERIVE_CALLEE, \
	  "_ZNK6OpInfo8may_readEv") \
	X(CF_MARK_FLAG_POINT, "OpRequest::mark_flag_point", DERIVE_CALLEE, \
	  "_ZN9OpRequest15mark_flag_pointEhPKc") \
	X(CF_TRACKEDOP_PUT, "TrackedOp::put", DERIVE_CALLEE, \
	  "_ZN9TrackedOp3putEv") \
	X(CF_UNREGISTERED, "OpRequest::_unregistered", DERIVE_NONE, \
	  "_ZN9OpRequest13_unregisteredEv") \
	/* its code names the binary's own Ceph version (binary.c) */ \
	X(CF_CEPH_VERSION, "ceph_version_to_str", DERIVE_NONE, \
	  "_Z19ceph_version_to_strv")

#define OSDHIST_CF_ENUM(id, pretty, derive, symbol) id,
enum ceph_fn { OSDHIST_CEPH_FNS(OSDHIST_CF_ENUM) NR_CEPH_FNS, CF_NONE = -1 };
#undef OSDHIST_CF_ENUM

extern const char *const ceph_fn_symbol[NR_CEPH_FNS];
extern const char *const ceph_fn_pretty[NR_CEPH_FNS];

/*
 * The functions osdhist may probe, X(id, fn, prefer, need, call, attach):
 *   fn      the function (above); its pretty name is the probe's
 *   prefer  probed instead of fn when the binary has it, or CF_NONE
 *   need    FEAT_TRACE: required, a binary without it is refused (PROBES_
 *           REQUIRED); or the one feature that needs it: fn_off is then 0
 *           when the binary lacks it, and that feature is refused
 *   call    CALL_DIRECT: non-virtual, Ceph's code calls it directly, so a
 *           build where no call or jump reaches it had it inlined at every
 *           call site (LTO: el9 builds, cephtrace issue 104), and its
 *           out-of-line copy, which a probe would sit on, never runs: it
 *           counts as absent (PROBES_DIRECT).  CALL_VIRTUAL: reached
 *           through vtables; the self-check against Ceph's counters
 *           guards those.
 *   attach  ATTACH(prog, when): bpf/'s program (the skeleton's
 *           progs.prog) and the options that attach it (attach.c's
 *           prog_of); NO_ATTACH: looked at, never probed
 */
#define OSDHIST_PROBES(X)						\
	X(FN_LOG_OP_STATS, CF_LOG_OP_STATS, CF_NONE, FEAT_TRACE, CALL_DIRECT, \
	  ATTACH(op_done, ALWAYS))					\
	X(FN_UNREGISTERED, CF_UNREGISTERED, CF_NONE, FEAT_TRACE, CALL_VIRTUAL, \
	  ATTACH(op_unregistered, ALWAYS))				\
	X(FN_REPOP_COMMIT, CF_REPOP_COMMIT, CF_NONE, FEAT_TRACE, CALL_DIRECT, \
	  ATTACH(subop_done, SUBOPS))					\
	X(FN_ENQUEUE_OP, CF_ENQUEUE_OP, CF_NONE, FEAT_POOL, CALL_DIRECT,	\
	  ATTACH(op_enqueue, POOL))					\
	/* Ceph's dequeued_time stamp does its job: not probed */	\
	X(FN_DEQUEUE_OP, CF_DEQUEUE_OP, CF_NONE, FEAT_PHASES, CALL_DIRECT, \
	  NO_ATTACH)							\
	X(FN_REP_SUBMIT, CF_REP_SUBMIT, CF_NONE, FEAT_PHASES, CALL_VIRTUAL, \
	  ATTACH(op_submit, PHASES))					\
	X(FN_EC_SUBMIT, CF_EC_SUBMIT, CF_ECSWITCH_SUBMIT, FEAT_PHASES,	\
	  CALL_VIRTUAL, ATTACH(op_submit, PHASES))

enum probe_call { CALL_VIRTUAL, CALL_DIRECT };

#define OSDHIST_PROBE_ENUM(id, fn, prefer, need, call, attach) id,
enum probe_fn { OSDHIST_PROBES(OSDHIST_PROBE_ENUM) NR_PROBE_FNS };
#undef OSDHIST_PROBE_ENUM

#define OSDHIST_PROBE_REQ(id, fn, prefer, need, call, attach) \
	| ((need) == FEAT_TRACE ? 1u << (id) : 0u)
#define OSDHIST_PROBE_DIRECT(id, fn, prefer, need, call, attach) \
	| ((call) == CALL_DIRECT ? 1u << (id) : 0u)
/* 1 << enum probe_fn of the required ones, and of the CALL_DIRECT ones */
#define PROBES_REQUIRED	(0u OSDHIST_PROBES(OSDHIST_PROBE_REQ))
#define PROBES_DIRECT	(0u OSDHIST_PROBES(OSDHIST_PROBE_DIRECT))

_Static_assert(NR_PROBE_FNS <= 32, "probe masks are 32 bits");

/* Each probe's function (its name: ceph_fn_pretty[probe_fn[p]]). */
extern const enum ceph_fn probe_fn[NR_PROBE_FNS];

#endif
