// Properties of the adequacy evaluator (SPEC §3.1, combinational), proved for every
// CTA mask on the exported Verilog by `weft prove`: WEFT_UUT becomes the preset's
// module, CTA_WARPS and LANES its parameters.
module weft_prove #(parameter CTA_WARPS = 3, parameter LANES = 4) (
    input clock,
    input [CTA_WARPS*LANES-1:0] cta_mask
);
    localparam CW = $clog2(CTA_WARPS + 1);
    wire [CW-1:0] min_warps, active_warps;
    wire adequate;
    WEFT_UUT uut (
        .cta_mask(cta_mask), .min_warps(min_warps), .active_warps(active_warps),
        .adequate(adequate)
    );

    // The definitions: the largest lane popcount, and the warps with an active thread.
    reg [7:0] max_pop, pop, rows;
    integer r, c;
    always @(*) begin
        max_pop = 0;
        rows = 0;
        for (c = 0; c < LANES; c = c + 1) begin
            pop = 0;
            for (r = 0; r < CTA_WARPS; r = r + 1) pop = pop + cta_mask[r*LANES + c];
            if (pop > max_pop) max_pop = pop;
        end
        for (r = 0; r < CTA_WARPS; r = r + 1)
            if (cta_mask[r*LANES +: LANES] != 0) rows = rows + 1;
    end

    always @(*) begin
        p_min_warps_is_largest_lane_popcount: assert(min_warps == max_pop);
        p_active_warps_counts_warps_with_a_thread: assert(active_warps == rows);
        p_adequate_when_compaction_saves_a_warp: assert(adequate == (max_pop < rows));
    end
endmodule
