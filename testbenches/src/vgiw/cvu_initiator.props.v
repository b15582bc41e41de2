// Properties of the CVU thread initiator (SPEC §5, VGIW §3.5), proved for all inputs on
// the exported Verilog by `weft prove`: WEFT_UUT becomes the preset's module, BATCH (64)
// and ID_BITS (16) its parameters. The contract is a queue of pending thread ids: the
// batch being looped (`cur`: base and remaining bits) followed by the second buffer
// (`nxt`), so the harness reads those registers through `hierconn` wires (Yosys's
// `flatten` joins them to the instance's wires of the same hierarchical name) and
// states each property as a relation between one cycle (registers and inputs, held in
// `p_*` ghost registers) and the next. Every property closes by induction at length 1.
module weft_prove #(parameter BATCH = 64, parameter ID_BITS = 16) (
    input clock,
    input reset,
    input in_valid,
    input [ID_BITS-1:0] in_base,
    input [BATCH-1:0] in_bitmap,
    input [3:0] log_dim_x,
    input [3:0] log_dim_y,
    input out_ready
);
    localparam B = BATCH;
    localparam W = ID_BITS;
    wire in_ready, out_valid, busy;
    wire [W-1:0] out_id, tid_x, tid_y, tid_z;
    WEFT_UUT uut (
        .clock(clock), .reset(reset), .in_valid(in_valid), .in_ready(in_ready),
        .in_base(in_base), .in_bitmap(in_bitmap), .log_dim_x(log_dim_x),
        .log_dim_y(log_dim_y), .out_valid(out_valid), .out_ready(out_ready),
        .out_id(out_id), .tid_x(tid_x), .tid_y(tid_y), .tid_z(tid_z), .busy(busy)
    );

    // The block's registers: the batch being looped (remaining bits, base) and the
    // second buffer.
    (* hierconn *) wire [B-1:0] \uut.cur_bits$q ;
    (* hierconn *) wire [W-1:0] \uut.cur_base$q ;
    (* hierconn *) wire \uut.nxt_valid$q ;
    (* hierconn *) wire [B-1:0] \uut.nxt_bits$q ;
    (* hierconn *) wire [W-1:0] \uut.nxt_base$q ;
    wire [B-1:0] cur = \uut.cur_bits$q ;
    wire [W-1:0] cur_base = \uut.cur_base$q ;
    wire nxt_v = \uut.nxt_valid$q ;
    wire [B-1:0] nxt = \uut.nxt_bits$q ;
    wire [W-1:0] nxt_base = \uut.nxt_base$q ;

    reg init = 1'b1;
    always @(*) if (init) assume(reset);

    // This cycle, as the contract reads it: a thread is taken (fire), the batch being
    // looped ends with it (last), a non-empty batch is taken (accept: in_ready means the
    // offered batch is taken on this edge; empty batches are dropped).
    wire [B-1:0] lowest = cur & ~(cur - 1'b1);
    wire fire = out_valid && out_ready;
    wire [B-1:0] left = fire ? cur & ~lowest : cur;
    wire cur_ends = left == 0;
    wire accept = in_valid && in_ready && in_bitmap != 0;

    // Last cycle.
    reg p_reset = 1'b0, p_accept = 1'b0, p_cur_ends = 1'b0, p_nxt_v = 1'b0;
    reg [B-1:0] p_left = 0, p_nxt = 0, p_in_bitmap = 0;
    reg [W-1:0] p_cur_base = 0, p_nxt_base = 0, p_in_base = 0;
    always @(posedge clock) begin
        init <= 1'b0;
        p_reset <= reset;
        p_accept <= accept;
        p_cur_ends <= cur_ends;
        p_left <= left;
        p_nxt_v <= nxt_v;
        p_nxt <= nxt;
        p_in_bitmap <= in_bitmap;
        p_cur_base <= cur_base;
        p_nxt_base <= nxt_base;
        p_in_base <= in_base;
    end

    // The presented id is the lowest remaining thread of the batch being looped.
    reg low_ok;
    reg [W-1:0] id_i;
    integer i;
    always @(*) begin
        low_ok = 1'b0;
        for (i = 0; i < B; i = i + 1) begin
            id_i = cur_base + i;
            if (lowest[i] && out_id == id_i) low_ok = 1'b1;
        end
    end

    // threadIdx recomposes the id: x + y * 2^lx + z * 2^(lx+ly), x < 2^lx, y < 2^ly.
    wire [47:0] recomposed = {32'd0, tid_x} + ({32'd0, tid_y} << log_dim_x)
                           + ({32'd0, tid_z} << ({1'b0, log_dim_x} + log_dim_y));
    wire [31:0] x_lim = 32'd1 << log_dim_x, y_lim = 32'd1 << log_dim_y;

    always @(*) if (!init) begin
        // A thread is presented exactly when the looped batch has a bit left, and its id
        // is base + the index of the lowest remaining bit (ascending order).
        p_out_is_lowest_pending: assert(out_valid == (cur != 0) && (!out_valid || low_ok));
        // The CUDA threadIdx coordinates of the presented id.
        p_tid_recomposes_id: assert(recomposed == {32'd0, out_id}
                                    && {16'd0, tid_x} < x_lim && {16'd0, tid_y} < y_lim);
        // The batch being looped loses exactly the thread taken (none when the fabric
        // is not ready) and keeps its base, until its last thread is taken: no thread is
        // lost or repeated.
        p_fire_retires_lowest: assert(p_reset || p_cur_ends
                                      || (cur == p_left && cur_base == p_cur_base));
        // When the looped batch ends, the second buffer's batch follows (batch order),
        // else a batch taken on that edge starts at once (no bubble), else nothing.
        p_next_batch_follows: assert(p_reset || !p_cur_ends
            || (p_nxt_v ? cur == p_nxt && cur_base == p_nxt_base && !nxt_v
                : p_accept ? cur == p_in_bitmap && cur_base == p_in_base && !nxt_v
                : cur == 0 && !nxt_v));
        // While the looped batch continues, a taken batch waits in the second buffer,
        // which otherwise keeps its batch (double buffering).
        p_second_buffer_holds_next: assert(p_reset || p_cur_ends
            || (p_accept ? nxt_v && nxt == p_in_bitmap && nxt_base == p_in_base
                : nxt_v == p_nxt_v && (!nxt_v || (nxt == p_nxt && nxt_base == p_nxt_base))));
        // A batch is taken exactly when the second buffer is free; busy = a batch is held.
        p_ready_and_busy: assert(in_ready == !nxt_v && busy == (cur != 0 || nxt_v));
        // The second buffer only holds a non-empty batch queued behind a non-empty one.
        p_second_behind_first: assert(!nxt_v || (cur != 0 && nxt != 0));
        // Reset drops both buffers.
        p_reset_drops_both: assert(!p_reset || (cur == 0 && !nxt_v && !out_valid && !busy));
    end
endmodule
