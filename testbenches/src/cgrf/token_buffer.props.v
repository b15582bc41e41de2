// Properties of the MT-CGRF token buffer (SPEC §6, VGIW §3.5; the doc comment of
// `hdl/cgrf/token_buffer.rs`), proved for all inputs on the exported Verilog by
// `weft prove`: WEFT_UUT becomes the preset's module, VCS its channel count (2 or 4:
// the harness reads the registers of four entries, those past VCS are unused;
// OPERANDS and DATA are fixed at 3 and 32 by the block). The contract is about the
// entries, so the harness reads the block's registers (valid bits, operand data, tid,
// last grant, count, error) through `hierconn` wires, which Yosys's `flatten` joins to
// the instance's wires of the same hierarchical name. Every property relates this
// cycle's registers and outputs to the last cycle's (ghost copies of the last cycle's
// inputs and registers), so each closes by induction at length 1. The invariant the
// induction needs, a count in 1..3, is its own property `p_inv_cnt_ok`; the properties
// that need it are stated for the traces in which it has held so far (`cnt_so_far`):
// `p_inv_cnt_ok` proves that is every trace, the invariant strengthens their induction
// as much as if it were asserted with them, and a bug that breaks only the count fails
// `p_inv_cnt_ok`, not them (so each one's planted bug shows its own clause can fail).
module weft_prove #(parameter VCS = 4, parameter OPERANDS = 3, parameter DATA = 32) (
    input clock,
    input reset,
    input cfg_valid,
    input [1:0] cfg_operands,
    input a_valid,
    input [$clog2(VCS)-1:0] a_vc,
    input [15:0] a_tid,
    input [31:0] a_data,
    input b_valid,
    input [$clog2(VCS)-1:0] b_vc,
    input [15:0] b_tid,
    input [31:0] b_data,
    input c_valid,
    input [$clog2(VCS)-1:0] c_vc,
    input [15:0] c_tid,
    input [31:0] c_data,
    input out_ready
);
    localparam VB = $clog2(VCS);
    wire a_ready, b_ready, c_ready, out_valid, busy, tid_error;
    wire [VB-1:0] out_vc;
    wire [15:0] out_tid;
    wire [31:0] out_a, out_b, out_c;
    WEFT_UUT uut (
        .clock(clock), .reset(reset), .cfg_valid(cfg_valid), .cfg_operands(cfg_operands),
        .a_valid(a_valid), .a_ready(a_ready), .a_vc(a_vc), .a_tid(a_tid), .a_data(a_data),
        .b_valid(b_valid), .b_ready(b_ready), .b_vc(b_vc), .b_tid(b_tid), .b_data(b_data),
        .c_valid(c_valid), .c_ready(c_ready), .c_vc(c_vc), .c_tid(c_tid), .c_data(c_data),
        .out_valid(out_valid), .out_ready(out_ready), .out_vc(out_vc), .out_tid(out_tid),
        .out_a(out_a), .out_b(out_b), .out_c(out_c), .busy(busy), .tid_error(tid_error)
    );

    // The block's registers.
    (* hierconn *) wire [VCS-1:0] \uut.full_a$q , \uut.full_b$q , \uut.full_c$q ;
    (* hierconn *) wire [31:0] \uut.data_a$0$q , \uut.data_a$1$q , \uut.data_a$2$q , \uut.data_a$3$q ;
    (* hierconn *) wire [31:0] \uut.data_b$0$q , \uut.data_b$1$q , \uut.data_b$2$q , \uut.data_b$3$q ;
    (* hierconn *) wire [31:0] \uut.data_c$0$q , \uut.data_c$1$q , \uut.data_c$2$q , \uut.data_c$3$q ;
    (* hierconn *) wire [15:0] \uut.tid$0$q , \uut.tid$1$q , \uut.tid$2$q , \uut.tid$3$q ;
    (* hierconn *) wire [VB-1:0] \uut.last$q ;
    (* hierconn *) wire [1:0] \uut.count_minus_one$q ;
    wire [VCS-1:0] fa = \uut.full_a$q , fb = \uut.full_b$q , fc = \uut.full_c$q ;
    wire [127:0] da4 = {\uut.data_a$3$q , \uut.data_a$2$q , \uut.data_a$1$q , \uut.data_a$0$q };
    wire [127:0] db4 = {\uut.data_b$3$q , \uut.data_b$2$q , \uut.data_b$1$q , \uut.data_b$0$q };
    wire [127:0] dc4 = {\uut.data_c$3$q , \uut.data_c$2$q , \uut.data_c$1$q , \uut.data_c$0$q };
    wire [63:0] t4 = {\uut.tid$3$q , \uut.tid$2$q , \uut.tid$1$q , \uut.tid$0$q };
    wire [VCS*32-1:0] da = da4[VCS*32-1:0], db = db4[VCS*32-1:0], dc = dc4[VCS*32-1:0];
    wire [VCS*16-1:0] td = t4[VCS*16-1:0];
    wire [VB-1:0] last = \uut.last$q ;
    wire [1:0] cnt = \uut.count_minus_one$q ;

    reg init = 1'b1;
    always @(*) if (init) assume(reset);

    // The contract's view of this cycle: the configured count n = cnt + 1 (1..3), the
    // slots the links need, the ready entries, what each link accepts (a free slot of
    // a configured link), the entries holding an operand.
    wire cnt_ok = cnt != 2'd3;
    // The count was in range in every checked cycle up to this one (the reset cycle is
    // not checked).
    reg cnt_before = 1'b1;
    always @(posedge clock) cnt_before <= init || (cnt_before && cnt_ok);
    wire cnt_so_far = cnt_before && cnt_ok;
    wire [2:0] n = cnt + 3'd1;
    wire need_b = n >= 3'd2, need_c = n >= 3'd3;
    wire [VCS-1:0] rdy = fa & (fb | {VCS{!need_b}}) & (fc | {VCS{!need_c}});
    wire [VCS-1:0] held = fa | fb | fc;
    wire take_a = a_valid && !fa[a_vc];
    wire take_b = b_valid && !fb[b_vc] && need_b;
    wire take_c = c_valid && !fc[c_vc] && need_c;
    wire fire = out_valid && out_ready;

    // The tid rule: a token is compared with the tid of the first link (a, b, c)
    // writing its channel on this edge, else with the entry's tid if the entry holds
    // an operand; the first token into an empty entry sets its tid.
    wire [15:0] tid_a = td[a_vc*16 +: 16], tid_b = td[b_vc*16 +: 16], tid_c = td[c_vc*16 +: 16];
    wire bad_a = take_a && held[a_vc] && a_tid != tid_a;
    wire bad_b = take_b && (take_a && a_vc == b_vc ? b_tid != a_tid
                            : held[b_vc] && b_tid != tid_b);
    wire bad_c = take_c && (take_a && a_vc == c_vc ? c_tid != a_tid
                            : take_b && b_vc == c_vc ? c_tid != b_tid
                            : held[c_vc] && c_tid != tid_c);
    wire mismatch = bad_a || bad_b || bad_c;

    // Round robin: the distance from the last fired channel to each channel (1..VCS),
    // and the fires of other entries each ready entry has waited through.
    reg [VCS*4-1:0] waited = 0;
    reg [VB:0] dist;
    reg [VB-1:0] rv;
    reg rr_ok;
    integer r;
    always @(*) begin
        rr_ok = 1'b1;
        for (r = 0; r < VCS; r = r + 1) begin
            rv = r;
            dist = {1'b0, rv - last - 1'b1} + 1'b1;
            if (rdy[r] && (waited[r*4 +: 4] + dist > VCS || waited[r*4 +: 4] > VCS - 1))
                rr_ok = 1'b0;
        end
    end

    // Last cycle.
    reg p_reset = 1'b0, p_cfg_valid = 1'b0, p_fire = 1'b0, p_error = 1'b0, p_mismatch = 1'b0;
    reg [1:0] p_cfg_operands = 0, p_cnt = 0;
    reg [VB-1:0] p_vc = 0, p_a_vc = 0, p_b_vc = 0, p_c_vc = 0;
    reg p_take_a = 1'b0, p_take_b = 1'b0, p_take_c = 1'b0;
    reg [15:0] p_a_tid = 0, p_b_tid = 0, p_c_tid = 0;
    reg [31:0] p_a_data = 0, p_b_data = 0, p_c_data = 0;
    reg [VCS-1:0] p_fa = 0, p_fb = 0, p_fc = 0;
    reg [VCS*32-1:0] p_da = 0, p_db = 0, p_dc = 0;
    reg [VCS*16-1:0] p_td = 0;
    integer w;
    always @(posedge clock) begin
        init <= 1'b0;
        p_reset <= reset;
        p_cfg_valid <= cfg_valid;
        p_cfg_operands <= cfg_operands;
        p_cnt <= cnt;
        p_fire <= fire;
        p_vc <= out_vc;
        p_error <= tid_error;
        p_mismatch <= mismatch;
        p_take_a <= take_a;
        p_take_b <= take_b;
        p_take_c <= take_c;
        p_a_vc <= a_vc;
        p_b_vc <= b_vc;
        p_c_vc <= c_vc;
        p_a_tid <= a_tid;
        p_b_tid <= b_tid;
        p_c_tid <= c_tid;
        p_a_data <= a_data;
        p_b_data <= b_data;
        p_c_data <= c_data;
        p_fa <= fa;
        p_fb <= fb;
        p_fc <= fc;
        p_da <= da;
        p_db <= db;
        p_dc <= dc;
        p_td <= td;
        for (w = 0; w < VCS; w = w + 1)
            if (reset || !rdy[w] || (fire && out_vc == w))
                waited[w*4 +: 4] <= 0;
            else if (fire)
                waited[w*4 +: 4] <= waited[w*4 +: 4] + 1;
    end

    // The presented entry: out_valid exactly when some entry is ready; then a ready
    // entry with its tid and stored operands (beyond the count: 0); else all zero.
    wire present_ok = out_valid
        ? rdy[out_vc] && out_tid == td[out_vc*16 +: 16] && out_a == da[out_vc*32 +: 32]
          && out_b == (need_b ? db[out_vc*32 +: 32] : 32'd0)
          && out_c == (need_c ? dc[out_vc*32 +: 32] : 32'd0)
        : rdy == 0 && out_vc == 0 && out_tid == 0 && out_a == 0 && out_b == 0 && out_c == 0;

    // Each slot after the last edge: valid = (held and its entry did not fire) or
    // accepted; an accepted token's data is stored, a held operand is kept.
    reg slots_ok, tids_ok;
    reg kept_v, new_a, new_b, new_c;
    integer s;
    always @(*) begin
        slots_ok = 1'b1;
        tids_ok = 1'b1;
        for (s = 0; s < VCS; s = s + 1) begin
            kept_v = !(p_fire && p_vc == s);
            new_a = p_take_a && p_a_vc == s;
            new_b = p_take_b && p_b_vc == s;
            new_c = p_take_c && p_c_vc == s;
            if (fa[s] != (!p_reset && (p_fa[s] && kept_v || new_a))) slots_ok = 1'b0;
            if (fb[s] != (!p_reset && (p_fb[s] && kept_v || new_b))) slots_ok = 1'b0;
            if (fc[s] != (!p_reset && (p_fc[s] && kept_v || new_c))) slots_ok = 1'b0;
            if (!p_reset) begin
                if (new_a ? da[s*32 +: 32] != p_a_data
                          : p_fa[s] && kept_v && da[s*32 +: 32] != p_da[s*32 +: 32])
                    slots_ok = 1'b0;
                if (new_b ? db[s*32 +: 32] != p_b_data
                          : p_fb[s] && kept_v && db[s*32 +: 32] != p_db[s*32 +: 32])
                    slots_ok = 1'b0;
                if (new_c ? dc[s*32 +: 32] != p_c_data
                          : p_fc[s] && kept_v && dc[s*32 +: 32] != p_dc[s*32 +: 32])
                    slots_ok = 1'b0;
                // The entry's tid: kept while it holds an operand; an empty entry
                // takes the tid of the first link (a, b, c) that writes it.
                if (p_fa[s] || p_fb[s] || p_fc[s]) begin
                    if (td[s*16 +: 16] != p_td[s*16 +: 16]) tids_ok = 1'b0;
                end else if (new_a) begin
                    if (td[s*16 +: 16] != p_a_tid) tids_ok = 1'b0;
                end else if (new_b) begin
                    if (td[s*16 +: 16] != p_b_tid) tids_ok = 1'b0;
                end else if (new_c) begin
                    if (td[s*16 +: 16] != p_c_tid) tids_ok = 1'b0;
                end
            end
        end
    end

    always @(*) if (!init) begin
        // The configured count is 1..3 (the count register never holds 3).
        p_inv_cnt_ok: assert(cnt_ok);
        // A fire presents an entry whose configured operands are all valid, with its
        // stored operands and tid; out_valid exactly when some entry is ready.
        p_present_ready_entry: assert(!cnt_so_far || present_ok);
        // A fire clears its entry (all three valid bits) and becomes the last grant.
        p_fire_clears_entry: assert(!p_fire || p_reset ||
            (!fa[p_vc] && !fb[p_vc] && !fc[p_vc] && last == p_vc));
        // A token accepted on a link is stored in its channel's slot; a held operand
        // stays (never overwritten or dropped) until its entry fires.
        p_token_stored: assert(!cnt_so_far || slots_ok);
        // The entry's tid is the first operand's; a held entry keeps it.
        p_tid_first_operand: assert(!cnt_so_far || tids_ok);
        // A link accepts exactly when its slot of the channel is free and the link is
        // within the configured count (backpressure, no overwrite, no misrouting).
        p_link_ready: assert(!cnt_so_far || (a_ready == !fa[a_vc]
            && b_ready == (!fb[b_vc] && need_b) && c_ready == (!fc[c_vc] && need_c)));
        // Round robin after the last fired channel: a ready entry waits at most VCS - 1
        // fires (with the invariant waited + distance from the last grant <= VCS).
        p_round_robin: assert(!cnt_so_far || rr_ok);
        // busy exactly when some operand is held.
        p_busy: assert(busy == (held != 0));
        // tid_error is sticky and raised exactly by an operand whose tid differs from
        // its entry's (the tid rule above); reset clears it.
        p_tid_error: assert(!cnt_so_far || tid_error == (!p_reset && (p_error || p_mismatch)));
        // Reset clears the valid bits, the last grant and the error and sets the count
        // to 1; a configuration write with a nonzero count loads it, 0 is ignored.
        p_reset_and_config: assert(!cnt_so_far || (p_reset
            ? fa == 0 && fb == 0 && fc == 0 && last == 0 && !tid_error && n == 1
            : n == (p_cfg_valid && p_cfg_operands != 0 ? p_cfg_operands : p_cnt + 2'd1)));
    end
endmodule
