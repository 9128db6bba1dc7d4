// The five queries analytics partners start from. docs/graphql-partners.md shows them word for word, a
// test runs each against data it makes, and GraphiQL opens with one tab each.

export interface PartnerQuery {
  title: string;
  query: string;
  variables?: Record<string, unknown>;
}

export const PARTNER_QUERIES: PartnerQuery[] = [
  {
    title: "Weekly ROAS by workflow type",
    query: `query WeeklyRoasByType($days: DateRange) {
  viewer {
    performanceByWeek(groupBy: WORKFLOW_TYPE, days: $days) {
      week
      group
      spendCents
      revenueCents
      roas
      ctr
      conversions
    }
  }
}`,
    variables: { days: { from: "2026-01-05" } },
  },
  {
    title: "Decaying creatives of a brand",
    query: `query DecayingCreatives($brandId: String!) {
  viewer {
    creatives(first: 100, brandId: $brandId) {
      totalCount
      edges {
        node {
          key
          projectId
          decay {
            decaying
            enoughVolume
            reason
            ctrChange
            roasChange
          }
        }
      }
    }
  }
}`,
    variables: { brandId: "brand-a" },
  },
  {
    title: "Credits used by type and week",
    query: `query CreditsByType {
  viewer {
    creditsBalance
    creditsByWeek {
      week
      workflowType
      credits
      projects
    }
  }
}`,
  },
  {
    title: "The last 50 projects with their assets",
    query: `query LastProjects {
  viewer {
    projects(first: 50, order: NEWEST_FIRST) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          projectId
          type
          status
          createdAt
          assets {
            type
            format
            url
            duration
          }
        }
      }
    }
  }
}`,
  },
  {
    title: "A job's events (subscription, over WebSocket)",
    query: `subscription JobEvents($jobId: String!) {
  workflowStream(jobId: $jobId) {
    id
    type
    status
    progress
    error
    result {
      completedStep
      refunded
      workflow {
        finalVideo
        assets {
          format
          url
        }
      }
    }
  }
}`,
    variables: { jobId: "<a project's projectId>" },
  },
];
